#include "diff/write.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

namespace opm::diff {

namespace {

class TextWriter {
public:
  explicit TextWriter(bool colour) : m_colour(colour) {}

  void package(const PackageDiff& p) {
    line(0, '\0', fmt::format("package {} ({})", p.name, status_name(p.status)), k_bold);
    if (p.status == PackageDiff::Status::changed &&
        p.old_default_channel != p.new_default_channel) {
      line(1, '~',
           fmt::format("default channel: {} -> {}", or_none(p.old_default_channel),
                       or_none(p.new_default_channel)));
    }
    names(1, '+', "channel", p.channels_added);
    names(1, '-', "channel", p.channels_removed);
    names(1, '+', "bundle", p.bundles_added);
    names(1, '-', "bundle", p.bundles_removed);
    for (const auto& b : p.bundles_changed) {
      line(1, '~', fmt::format("bundle {}: {}", b.name, bundle_change_text(b)));
    }
    for (const auto& c : p.channels) {
      channel(c);
    }
    for (const auto& d : p.deprecations_added) {
      line(1, '+', fmt::format("deprecation of {}: {}", d.subject, d.message));
    }
    for (const auto& d : p.deprecations_removed) {
      line(1, '-', fmt::format("deprecation of {}: {}", d.subject, d.message));
    }
  }

  void violations(const std::vector<Violation>& list) {
    if (list.empty()) {
      return;
    }
    line(0, '\0',
         fmt::format("upgrade check: {} problem{}", list.size(), list.size() == 1 ? "" : "s"),
         k_bold);
    for (const auto& v : list) {
      std::string where = v.where.empty() ? "" : v.where.describe() + ": ";
      line(1, '!', fmt::format("{}{} [{}]", where, v.message, rule_name(v.rule)));
    }
  }

  std::string take() { return std::move(m_out); }

private:
  static constexpr std::string_view k_bold = "\033[1m";

  static std::string or_none(const std::string& s) { return s.empty() ? "(none)" : s; }

  void channel(const ChannelDiff& c) {
    line(1, '\0', fmt::format("channel {}:", c.name));
    if (c.old_head != c.new_head) {
      line(2, '~', fmt::format("head: {} -> {}", or_none(c.old_head), or_none(c.new_head)));
    }
    names(2, '+', "entry", c.entries_added);
    names(2, '-', "entry", c.entries_removed);
    for (const auto& e : c.edges_added) {
      line(2, '+', fmt::format("edge {} {} {}", e.bundle, kind_name(e.kind), e.target));
    }
    for (const auto& e : c.edges_removed) {
      line(2, '-', fmt::format("edge {} {} {}", e.bundle, kind_name(e.kind), e.target));
    }
  }

  void names(int depth, char mark, std::string_view what, const std::vector<std::string>& list) {
    for (const auto& name : list) {
      line(depth, mark, fmt::format("{} {}", what, name));
    }
  }

  static std::string_view colour_of(char mark) {
    switch (mark) {
    case '+':
      return "\033[32m";
    case '-':
    case '!':
      return "\033[31m";
    case '~':
      return "\033[33m";
    default:
      return "";
    }
  }

  void line(int depth, char mark, const std::string& text, std::string_view style = {}) {
    std::string body = mark == '\0' ? text : fmt::format("{} {}", mark, text);
    std::string_view colour = style.empty() ? colour_of(mark) : style;
    m_out.append(static_cast<std::size_t>(depth) * 2, ' ');
    if (m_colour && !colour.empty()) {
      m_out += fmt::format("{}{}\033[0m\n", colour, body);
    } else {
      m_out += body + "\n";
    }
  }

  bool m_colour;
  std::string m_out;
};

} // namespace

std::string_view status_name(PackageDiff::Status status) {
  switch (status) {
  case PackageDiff::Status::added:
    return "added";
  case PackageDiff::Status::removed:
    return "removed";
  case PackageDiff::Status::changed:
    return "changed";
  }
  return "";
}

std::string bundle_change_text(const BundleChange& change) {
  std::vector<std::string> parts;
  if (change.old_image != change.new_image) {
    parts.push_back(fmt::format("image {} -> {}", change.old_image, change.new_image));
  }
  if (!change.property_types.empty()) {
    parts.push_back("properties " + util::join(change.property_types, ", "));
  }
  if (change.related_images_changed) {
    parts.emplace_back("related images");
  }
  return util::join(parts, "; ");
}

std::string text_report(const Report& report, bool colour) {
  TextWriter writer(colour);
  for (const auto& p : report.diff.packages) {
    writer.package(p);
  }
  if (report.violations != nullptr) {
    writer.violations(*report.violations);
  }
  return writer.take();
}

} // namespace opm::diff
