#include "list/list.hpp"

#include "json/parse.hpp"
#include "json/unmarshal.hpp"
#include "json/value.hpp"
#include "util/strings.hpp"
#include "validate/validate.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace opm::list {

namespace model = catalog::model;

namespace {

constexpr std::size_t k_padding = 2;

// spec.displayName of a CSV, as far as Go's decoder into the CSV type would find it; ""
// when the CSV is missing or not shaped that way.
std::string display_name(std::string_view csv_json) {
  if (csv_json.empty()) {
    return {};
  }
  Json csv = json::parse_text(csv_json, false);
  if (csv.is_discarded() || !csv.is_object()) {
    return {};
  }
  const Json* spec = json::find_member(csv, "spec");
  if (spec == nullptr || !spec->is_object()) {
    return {};
  }
  const Json* name = json::find_member(*spec, "displayName");
  if (name == nullptr || !name->is_string()) {
    return {};
  }
  return name->get<std::string>();
}

std::string default_display_name(const model::Package& pkg) {
  auto ch = pkg.channels.find(pkg.default_channel);
  if (ch == pkg.channels.end()) {
    return {};
  }
  auto head = model::channel_head(ch->second);
  if (!head) {
    return {};
  }
  return display_name((*head)->csv_json());
}

// The packages to list: all, or the one named.
Result<std::vector<const model::Package*>> select(const model::Model& model,
                                                  std::string_view package) {
  std::vector<const model::Package*> out;
  if (package.empty()) {
    out.reserve(model.packages.size());
    for (const auto& [name, pkg] : model.packages) {
      out.push_back(&pkg);
    }
    return out;
  }
  auto found = model.packages.find(package);
  if (found == model.packages.end()) {
    return fail(Errc::not_found, fmt::format("package {} not found", util::go_quote(package)));
  }
  out.push_back(&found->second);
  return out;
}

} // namespace

std::string tabulate(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    for (std::size_t i = 0; i + 1 < row.size(); ++i) {
      if (widths.size() <= i) {
        widths.resize(i + 1, 0);
      }
      widths[i] = std::max(widths[i], util::utf8_length(row[i]) + k_padding);
    }
  }
  std::string out;
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      out += row[i];
      if (i + 1 < row.size()) {
        out.append(widths[i] - util::utf8_length(row[i]), ' ');
      }
    }
    out += '\n';
  }
  return out;
}

std::string list_packages(const model::Model& model) {
  std::vector<std::vector<std::string>> rows{{"NAME", "DISPLAY NAME", "DEFAULT CHANNEL"}};
  rows.reserve(model.packages.size() + 1);
  for (const auto& [name, pkg] : model.packages) {
    rows.push_back({pkg.name, default_display_name(pkg), pkg.default_channel});
  }
  return tabulate(rows);
}

Result<std::string> list_channels(const model::Model& model, std::string_view package) {
  auto packages = OPM_TRY(select(model, package));
  std::vector<std::vector<std::string>> rows{{"PACKAGE", "CHANNEL", "HEAD"}};
  for (const model::Package* pkg : packages) {
    for (const auto& [name, ch] : pkg->channels) {
      auto head = model::channel_head(ch);
      rows.push_back(
          {pkg->name, ch.name, head ? (*head)->name : "ERROR: " + head.error().message()});
    }
  }
  return tabulate(rows);
}

Result<std::string> list_bundles(const model::Model& model, std::string_view package) {
  auto packages = OPM_TRY(select(model, package));
  std::vector<std::vector<std::string>> rows{
      {"PACKAGE", "CHANNEL", "BUNDLE", "REPLACES", "SKIPS", "SKIP RANGE", "IMAGE"}};
  for (const model::Package* pkg : packages) {
    for (const auto& [channel_name, ch] : pkg->channels) {
      for (const auto& [name, b] : ch.bundles) {
        rows.push_back({pkg->name, ch.name, b.name, b.replaces, util::join(b.skips, ","),
                        b.skip_range, b.image});
      }
    }
  }
  return tabulate(rows);
}

// Upstream renders the reference allowing only catalog directories and images, then
// converts and validates the model.
Result<std::string> run(const Request& request, const RenderCatalog& render) {
  auto cfg = render(request.ref);
  if (!cfg) {
    if (cfg.error().code() == Errc::not_allowed) {
      return util::fail(Errc::invalid,
                        fmt::format("cannot list non-index {}", util::go_quote(request.ref)));
    }
    return std::unexpected(std::move(cfg).error());
  }
  auto model = OPM_TRY(validate::valid_model(*cfg));
  switch (request.what) {
  case Listing::packages:
    return list_packages(model);
  case Listing::channels:
    return list_channels(model, request.package);
  default:
    return list_bundles(model, request.package);
  }
}

} // namespace opm::list
