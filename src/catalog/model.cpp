#include "catalog/model.hpp"

#include "catalog/property.hpp"
#include "util/reference.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace opm::catalog::model {

namespace {

constexpr std::size_t k_release_max_length = 20;
constexpr std::size_t k_dns1123_label_max_length = 63;

std::unexpected<Error> invalid_at(std::string message, const Location& where) {
  return fail(Errc::invalid, std::move(message), where);
}

bool is_label_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool is_dns1123_label(std::string_view s) {
  return !s.empty() && is_label_char(s.front()) && is_label_char(s.back()) &&
         std::ranges::all_of(s, [](char c) { return is_label_char(c) || c == '-'; });
}

// Labels joined by dots.
bool is_dns1123_subdomain(std::string_view s) {
  std::size_t start = 0;
  while (true) {
    std::size_t dot = s.find('.', start);
    if (!is_dns1123_label(s.substr(start, dot == std::string_view::npos ? dot : dot - start))) {
      return false;
    }
    if (dot == std::string_view::npos) {
      return true;
    }
    start = dot + 1;
  }
}

// k8s.io/apimachinery validation.IsDNS1123Label, printed as Go prints a []string.
std::string dns1123_label_problems(std::string_view name) {
  std::vector<std::string> problems;
  if (name.size() > k_dns1123_label_max_length) {
    problems.push_back(
        fmt::format("must be no more than {} characters", k_dns1123_label_max_length));
  }
  if (!is_dns1123_label(name)) {
    if (is_dns1123_subdomain(name)) {
      problems.emplace_back("must not contain dots");
    } else {
      problems.emplace_back(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
          "and must start and end with an alphanumeric character (e.g. 'my-name',  or "
          "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
    }
  }
  if (problems.empty()) {
    return {};
  }
  return "[" + util::join(problems, " ") + "]";
}

// Go's %#v of a declcfg.PackageScopedReference.
std::string describe_reference(const PackageScopedReference& ref) {
  return fmt::format("declcfg.PackageScopedReference{{Schema:{}, Name:{}}}",
                     util::go_quote(ref.schema), util::go_quote(ref.name));
}

// The image checks of B7/B8: empty is allowed. `what` names the image, called only for the
// error (most images are fine, and every bundle has several).
template <typename What> Result<void> check_pull_spec(std::string_view image, What what) {
  if (image.empty()) {
    return {};
  }
  if (auto ref = util::parse_reference(image); !ref) {
    return fail(Errc::invalid, fmt::format("{}: invalid image pull spec {}: {}", what(),
                                           util::go_quote(image), ref.error().message()));
  }
  return {};
}

struct PackageState {
  Package* package = nullptr;
  const catalog::Package* source = nullptr;
  // Entries of the last channel read for this package that no bundle object has claimed
  // yet (upstream keeps one such set per package and replaces it for every channel).
  std::set<std::string_view> unclaimed_entries;
  const Location* last_channel_where = nullptr;
  std::unordered_set<std::string_view> bundle_names;
};

class Converter {
public:
  explicit Converter(const DeclarativeConfig& cfg) : m_cfg(cfg) {}

  Result<Model> run() {
    OPM_TRY(add_packages());
    OPM_TRY(add_channels());
    OPM_TRY(add_bundles());
    OPM_TRY(check_unclaimed_entries());
    add_default_channels();
    OPM_TRY(apply_deprecations());
    return std::move(m_model);
  }

private:
  Result<void> add_packages() {
    m_states.reserve(m_cfg.packages.size());
    for (const auto& p : m_cfg.packages) {
      if (p.name.empty()) {
        return invalid_at("config contains package with no name", p.where);
      }
      if (m_states.contains(p.name)) {
        return invalid_at(fmt::format("duplicate package {}", util::go_quote(p.name)), p.where);
      }
      if (auto problems = dns1123_label_problems(p.name); !problems.empty()) {
        return invalid_at(
            fmt::format("invalid package name {}: {}", util::go_quote(p.name), problems), p.where);
      }
      Package& pkg = m_model.packages[p.name];
      pkg.name = p.name;
      pkg.description = p.description;
      pkg.icon = p.icon;
      pkg.where = p.where;
      PackageState& state = m_states[p.name];
      state.package = &pkg;
      state.source = &p;
    }
    return {};
  }

  Result<void> add_channels() {
    for (const auto& c : m_cfg.channels) {
      auto state = m_states.find(c.package);
      if (state == m_states.end()) {
        return invalid_at(fmt::format("unknown package {} for channel {}",
                                      util::go_quote(c.package), util::go_quote(c.name)),
                          c.where);
      }
      if (c.name.empty()) {
        return invalid_at(
            fmt::format("package {} contains channel with no name", util::go_quote(c.package)),
            c.where);
      }
      Package& pkg = *state->second.package;
      if (pkg.channels.contains(c.name)) {
        return invalid_at(fmt::format("package {} has duplicate channel {}",
                                      util::go_quote(c.package), util::go_quote(c.name)),
                          c.where);
      }
      Channel ch;
      ch.name = c.name;
      ch.package = c.package;
      ch.properties = c.properties;
      ch.where = c.where;
      std::set<std::string_view> entries;
      if (c.entries) {
        ch.entry_order.reserve(c.entries->size());
        for (const auto& e : *c.entries) {
          Bundle b;
          b.name = e.name;
          b.package = c.package;
          b.channel = c.name;
          b.replaces = e.replaces;
          b.skips = e.skips;
          b.skip_range = e.skip_range;
          b.where = c.where;
          if (!ch.bundles.try_emplace(e.name, std::move(b)).second) {
            return invalid_at(fmt::format("invalid package {}, channel {}: duplicate entry {}",
                                          util::go_quote(c.package), util::go_quote(c.name),
                                          util::go_quote(e.name)),
                              c.where);
          }
          ch.entry_order.push_back(e.name);
          entries.insert(e.name);
        }
      }
      state->second.unclaimed_entries = std::move(entries);
      state->second.last_channel_where = &c.where;
      if (c.name == state->second.source->default_channel) {
        pkg.default_channel = c.name;
      }
      pkg.channels.emplace(c.name, std::move(ch));
    }
    return {};
  }

  Result<void> add_bundles() {
    for (const auto& b : m_cfg.bundles) {
      if (auto added = add_bundle(b); !added) {
        return std::unexpected(std::move(added).error().located(b.where));
      }
    }
    return {};
  }

  Result<void> add_bundle(const catalog::Bundle& b) {
    if (b.package.empty()) {
      return fail(Errc::invalid,
                  fmt::format("package name must be set for bundle {}", util::go_quote(b.name)));
    }
    auto found = m_states.find(b.package);
    if (found == m_states.end()) {
      return fail(Errc::invalid, fmt::format("unknown package {} for bundle {}",
                                             util::go_quote(b.package), util::go_quote(b.name)));
    }
    PackageState& state = found->second;
    if (!state.bundle_names.insert(b.name).second) {
      return fail(Errc::invalid, fmt::format("package {} has duplicate bundle {}",
                                             util::go_quote(b.package), util::go_quote(b.name)));
    }
    auto props = property::parse(b.properties);
    if (!props) {
      return fail(Errc::invalid, fmt::format("parse properties for bundle {}: {}",
                                             util::go_quote(b.name), props.error().message()));
    }
    if (props->packages.size() != 1) {
      return fail(Errc::invalid,
                  fmt::format("package {} bundle {} must have exactly 1 {} property, found {}",
                              util::go_quote(b.package), util::go_quote(b.name),
                              util::go_quote(k_prop_package), props->packages.size()));
    }
    const property::Package& identity = props->packages[0];
    if (b.package != identity.package_name) {
      return fail(Errc::invalid,
                  fmt::format("package {} does not match {} property {}", util::go_quote(b.package),
                              util::go_quote(k_prop_package),
                              util::go_quote(identity.package_name)));
    }
    auto subject = [&b] {
      return fmt::format("package {} bundle {}", util::go_quote(b.package), util::go_quote(b.name));
    };
    OPM_TRY(check_pull_spec(b.image, [&] { return subject() + " image"; }));
    for (std::size_t i = 0; i < b.related_images.size(); ++i) {
      OPM_TRY(check_pull_spec(b.related_images[i].image, [&] {
        return fmt::format("{} relatedImages[{}].image", subject(), i);
      }));
    }
    auto version = util::semver::parse(identity.version);
    if (!version) {
      return fail(Errc::invalid,
                  fmt::format("error parsing bundle {} version {}: {}", util::go_quote(b.name),
                              util::go_quote(identity.version), version.error().message()));
    }
    auto release = parse_release(identity.release);
    if (!release) {
      return fail(Errc::invalid,
                  fmt::format("error parsing bundle {} release version {}: {}",
                              util::go_quote(b.name), util::go_quote(identity.release),
                              release.error().message()));
    }

    state.unclaimed_entries.erase(b.name);
    bool listed = false;
    for (auto& [channel_name, ch] : state.package->channels) {
      auto entry = ch.bundles.find(b.name);
      if (entry == ch.bundles.end()) {
        continue;
      }
      listed = true;
      Bundle& mb = entry->second;
      mb.image = b.image;
      mb.version = identity.version;
      mb.release = identity.release;
      mb.parsed_version = *version;
      mb.parsed_release = *release;
      mb.has_blob = true;
      mb.blob = &b;
      mb.where = b.where;
    }
    if (!listed) {
      return fail(Errc::invalid,
                  fmt::format("package {}, bundle {} not found in any channel entries",
                              util::go_quote(b.package), util::go_quote(b.name)));
    }
    return {};
  }

  Result<void> check_unclaimed_entries() {
    for (const auto& p : m_cfg.packages) {
      const PackageState& state = m_states.at(p.name);
      if (state.unclaimed_entries.empty()) {
        continue;
      }
      std::string names;
      for (std::string_view name : state.unclaimed_entries) {
        if (!names.empty()) {
          names += ' ';
        }
        names += name;
      }
      return invalid_at(fmt::format("no olm.bundle blobs found in package {} for olm.channel "
                                    "entries [{}]",
                                    util::go_quote(p.name), names),
                        *state.last_channel_where);
    }
    return {};
  }

  // A default channel named by the package but defined by no channel object becomes an
  // empty channel (which model validation then reports).
  void add_default_channels() {
    for (auto& [name, state] : m_states) {
      const std::string& wanted = state.source->default_channel;
      Package& pkg = *state.package;
      if (wanted.empty() || !pkg.default_channel.empty()) {
        continue;
      }
      Channel ch;
      ch.name = wanted;
      ch.package = pkg.name;
      ch.where = pkg.where;
      ch.defined = false;
      pkg.channels.emplace(wanted, std::move(ch));
      pkg.default_channel = wanted;
    }
  }

  Result<void> apply_deprecations() {
    std::unordered_set<std::string_view> seen_packages;
    for (std::size_t i = 0; i < m_cfg.deprecations.size(); ++i) {
      const auto& d = m_cfg.deprecations[i];
      if (d.package.empty()) {
        return invalid_at(fmt::format("package name must be set for deprecation item {}", i),
                          d.where);
      }
      auto found = m_states.find(d.package);
      if (found == m_states.end()) {
        return invalid_at(fmt::format("cannot apply deprecations to an unknown package {}",
                                      util::go_quote(d.package)),
                          d.where);
      }
      if (!seen_packages.insert(d.package).second) {
        return invalid_at(fmt::format("expected a maximum of one deprecation per package: {}",
                                      util::go_quote(d.package)),
                          d.where);
      }
      if (d.entries) {
        if (auto applied = apply_entries(d, found->second); !applied) {
          return std::unexpected(std::move(applied).error().located(d.where));
        }
      }
    }
    return {};
  }

  static Result<void> apply_entries(const catalog::Deprecation& d, PackageState& state) {
    Package& pkg = *state.package;
    std::set<std::pair<std::string_view, std::string_view>> references;
    for (std::size_t j = 0; j < d.entries->size(); ++j) {
      const auto& entry = (*d.entries)[j];
      const auto& ref = entry.reference;
      if (ref.schema.empty()) {
        return fail(Errc::invalid,
                    fmt::format("schema must be set for deprecation entry [{}] for package {}", j,
                                util::go_quote(d.package)));
      }
      if (!references.emplace(ref.schema, ref.name).second) {
        return fail(Errc::invalid, fmt::format("duplicate deprecation entry {} for package {}",
                                               describe_reference(ref), util::go_quote(d.package)));
      }
      Deprecation mark{entry.message, true};
      if (ref.schema == k_schema_bundle) {
        if (!state.bundle_names.contains(ref.name)) {
          return fail(Errc::invalid,
                      fmt::format("cannot deprecate bundle {} for package {}: "
                                  "bundle not found",
                                  util::go_quote(ref.name), util::go_quote(d.package)));
        }
        for (auto& [channel_name, ch] : pkg.channels) {
          if (auto b = ch.bundles.find(ref.name); b != ch.bundles.end()) {
            b->second.deprecation = mark;
          }
        }
      } else if (ref.schema == k_schema_channel) {
        auto ch = pkg.channels.find(ref.name);
        if (ch == pkg.channels.end()) {
          return fail(Errc::invalid,
                      fmt::format("cannot deprecate channel {} for package {}: "
                                  "channel not found",
                                  util::go_quote(ref.name), util::go_quote(d.package)));
        }
        ch->second.deprecation = mark;
      } else if (ref.schema == k_schema_package) {
        if (!ref.name.empty()) {
          return fail(Errc::invalid,
                      fmt::format("package name must be empty for deprecated package {} "
                                  "(specified {})",
                                  util::go_quote(d.package), util::go_quote(ref.name)));
        }
        pkg.deprecation = mark;
      } else {
        return fail(Errc::invalid,
                    fmt::format("cannot deprecate object {} referenced by entry {} for package "
                                "{}: object schema unknown",
                                describe_reference(ref), j, util::go_quote(d.package)));
      }
    }
    return {};
  }

  const DeclarativeConfig& m_cfg;
  Model m_model;
  std::unordered_map<std::string_view, PackageState> m_states;
};

} // namespace

std::span<const Property> Bundle::properties() const {
  return blob != nullptr ? std::span<const Property>(blob->properties)
                         : std::span<const Property>();
}

std::span<const RelatedImage> Bundle::related_images() const {
  return blob != nullptr ? std::span<const RelatedImage>(blob->related_images)
                         : std::span<const RelatedImage>();
}

std::span<const std::string> Bundle::objects() const {
  return blob != nullptr ? std::span<const std::string>(blob->objects)
                         : std::span<const std::string>();
}

bool Bundle::has_objects() const { return blob != nullptr && blob->has_objects(); }

std::string_view Bundle::csv_json() const {
  return blob != nullptr ? blob->csv_json() : std::string_view();
}

std::string Bundle::version_string() const {
  std::string out = parsed_version.to_string();
  for (std::size_t i = 0; i < parsed_release.size(); ++i) {
    out += i == 0 ? '-' : '.';
    out += parsed_release[i].to_string();
  }
  return out;
}

Result<std::vector<util::semver::PreRelease>> parse_release(std::string_view text) {
  std::vector<util::semver::PreRelease> ids;
  if (text.empty()) {
    return ids;
  }
  if (text.size() > k_release_max_length) {
    return fail(Errc::invalid,
                fmt::format("invalid release {}: exceeds maximum length of {} characters",
                            util::go_quote(text), k_release_max_length));
  }
  std::string problems;
  std::size_t index = 0;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = text.find('.', start);
    std::string_view segment =
        text.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (auto id = util::semver::parse_prerelease(segment)) {
      ids.push_back(std::move(*id));
    } else {
      if (!problems.empty()) {
        problems += '\n';
      }
      problems += fmt::format("segment {}: {}", index, id.error().message());
    }
    if (dot == std::string_view::npos) {
      break;
    }
    start = dot + 1;
    ++index;
  }
  if (!problems.empty()) {
    return fail(Errc::invalid,
                fmt::format("invalid release {}: {}", util::go_quote(text), problems));
  }
  return ids;
}

Result<Model> to_model(const DeclarativeConfig& cfg) { return Converter(cfg).run(); }

Result<const Bundle*> channel_head(const Channel& channel) {
  std::unordered_set<std::string_view> incoming;
  for (const auto& [name, b] : channel.bundles) {
    if (!b.replaces.empty()) {
      incoming.insert(b.replaces);
    }
    for (const auto& skip : b.skips) {
      incoming.insert(skip);
    }
  }
  std::vector<const Bundle*> heads;
  for (const auto& [name, b] : channel.bundles) {
    if (!incoming.contains(name)) {
      heads.push_back(&b);
    }
  }
  if (heads.empty()) {
    return fail(Errc::invalid, "no channel head found in graph");
  }
  if (heads.size() > 1) {
    // The map is ordered by name, so the heads already are.
    std::string names;
    for (const Bundle* b : heads) {
      if (!names.empty()) {
        names += ", ";
      }
      names += b->name;
    }
    return fail(Errc::invalid, "multiple channel heads found in graph: " + names);
  }
  return heads.front();
}

} // namespace opm::catalog::model
