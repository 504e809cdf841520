#include "catalog/model.hpp"
#include "catalog/property.hpp"
#include "json/unmarshal.hpp"
#include "template/detail/common.hpp"
#include "template/template.hpp"
#include "util/semver.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace opm::templates {

namespace {

namespace semver = util::semver;

constexpr std::string_view k_substitutes_schema = "olm.template.substitutes";

struct Substitution {
  std::string name; // the bundle image to render
  std::string base; // the bundle it stands in for
};

struct VersionRelease {
  semver::Version version;
  std::vector<semver::PreRelease> release;
};

// Releases order like pre-release identifiers; no release sorts first.
int compare(const VersionRelease& a, const VersionRelease& b) {
  if (int c = semver::compare(a.version, b.version); c != 0) {
    return c;
  }
  for (std::size_t i = 0; i < a.release.size() && i < b.release.size(); ++i) {
    if (int c = semver::compare(a.release[i], b.release[i]); c != 0) {
      return c;
    }
  }
  return (a.release.size() > b.release.size()) - (a.release.size() < b.release.size());
}

bool has_substitutes_for(const Json& annotations) {
  if (!annotations.is_object()) {
    return false;
  }
  auto found = annotations.find("olm.substitutesFor");
  return found != annotations.end() && found->is_string() && !found->get<std::string>().empty();
}

// Bundles that encode their release in the version's build metadata name what they substitute
// for in their CSV's olm.substitutesFor annotation.
bool uses_legacy_release(const catalog::Bundle& b) {
  if (!b.csv_json().empty()) {
    auto csv = Json::parse(b.csv_json(), nullptr, false);
    if (!csv.is_discarded()) {
      const Json* metadata = csv.is_object() ? json::find_member(csv, "metadata") : nullptr;
      const Json* annotations = metadata != nullptr && metadata->is_object()
                                    ? json::find_member(*metadata, "annotations")
                                    : nullptr;
      return annotations != nullptr && has_substitutes_for(*annotations);
    }
  }
  for (const auto& p : b.properties) {
    if (p.type == catalog::k_prop_csv_metadata && p.value.is_object()) {
      const Json* annotations = json::find_member(p.value, "annotations");
      if (annotations != nullptr && has_substitutes_for(*annotations)) {
        return true;
      }
    }
  }
  return false;
}

Result<VersionRelease> version_release(const catalog::Bundle& b) {
  auto props = OPM_TRY(catalog::property::parse(b.properties));
  if (props.packages.size() > 1) {
    return util::fail(Errc::invalid, "must be exactly one property of type \"olm.package\"");
  }
  if (props.packages.empty()) {
    return util::fail(Errc::invalid, fmt::format("no \"olm.package\" property found for bundle {}",
                                                 util::go_quote(b.name)));
  }
  const auto& pkg = props.packages.front();
  auto version = semver::parse(pkg.version);
  if (!version) {
    return util::fail(Errc::invalid,
                      fmt::format("invalid semver version {} in \"olm.package\" property for "
                                  "bundle {}: {}",
                                  util::go_quote(pkg.version), util::go_quote(b.name),
                                  version.error().message()));
  }
  auto release = catalog::model::parse_release(pkg.release);
  if (!release) {
    return util::fail(Errc::invalid,
                      fmt::format("invalid release {} in \"olm.package\" property for bundle {}: "
                                  "{}",
                                  util::go_quote(pkg.release), util::go_quote(b.name),
                                  release.error().message()));
  }
  if (release->empty() && !version->build.empty() && uses_legacy_release(b)) {
    auto legacy = catalog::model::parse_release(util::join(version->build, "."));
    if (!legacy) {
      return util::fail(Errc::invalid,
                        fmt::format("unable to convert build metadata to release for bundle {}: {}",
                                    util::go_quote(b.name), legacy.error().message()));
    }
    version->build.clear();
    return VersionRelease{std::move(*version), std::move(*legacy)};
  }
  return VersionRelease{std::move(*version), std::move(*release)};
}

std::vector<Substitution> substitutions_of(const Json& wrapped) {
  std::vector<Substitution> out;
  const Json* list = json::find_member(wrapped, "substitutions");
  if (list == nullptr || !list->is_array()) {
    return out;
  }
  for (const auto& item : *list) {
    Substitution s;
    if (item.is_object()) {
      if (const Json* n = json::find_member(item, "name"); n != nullptr && n->is_string()) {
        s.name = n->get<std::string>();
      }
      if (const Json* b = json::find_member(item, "base"); b != nullptr && b->is_string()) {
        s.base = b->get<std::string>();
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

Result<void> check_model(const catalog::DeclarativeConfig& cfg, std::string_view doing) {
  if (auto model = catalog::model::to_model(cfg); !model) {
    return std::unexpected(detail::without_location(std::move(model).error()).wrap(doing));
  }
  return {};
}

Result<catalog::Bundle> substitute_bundle(const catalog::DeclarativeConfig& cfg,
                                          const Substitution& s,
                                          const RenderBundles& render_bundles) {
  if (s.name.empty()) {
    return util::fail(Errc::invalid, "substitution name cannot be empty");
  }
  if (s.base.empty()) {
    return util::fail(Errc::invalid, "substitution base cannot be empty");
  }
  if (s.name == s.base) {
    return util::fail(Errc::invalid, "substitution name and base cannot be the same");
  }
  auto rendered = render_bundles({s.name});
  if (!rendered) {
    return std::unexpected(std::move(rendered).error().wrap(
        fmt::format("failed to render bundle image reference {}", util::go_quote(s.name))));
  }
  if (rendered->empty() || rendered->front().bundles.empty()) {
    return util::fail(Errc::invalid,
                      fmt::format("rendered bundle image reference {} contains no bundles",
                                  util::go_quote(s.name)));
  }
  auto substitute = std::move(rendered->front().bundles.front());
  auto substitute_vr = version_release(substitute);
  if (!substitute_vr) {
    return std::unexpected(
        std::move(substitute_vr)
            .error()
            .wrap(fmt::format("failed to get VersionRelease for substitute bundle {}",
                              util::go_quote(s.name))));
  }
  auto base = std::ranges::find(cfg.bundles, s.base, &catalog::Bundle::name);
  if (base == cfg.bundles.end()) {
    return util::fail(Errc::invalid, fmt::format("base bundle {} does not exist in catalog",
                                                 util::go_quote(s.base)));
  }
  auto base_vr = version_release(*base);
  if (!base_vr) {
    return std::unexpected(std::move(base_vr).error().wrap(
        fmt::format("failed to get VersionRelease for base bundle {}", util::go_quote(s.base))));
  }
  if (compare(*base_vr, *substitute_vr) >= 0) {
    return util::fail(Errc::invalid, fmt::format("base bundle {} is not less than substitute "
                                                 "bundle {}",
                                                 util::go_quote(s.base), util::go_quote(s.name)));
  }
  return substitute;
}

void substitute_in_channel(catalog::Channel& channel, const std::string& base,
                           const std::string& substitute) {
  if (!channel.entries) {
    return;
  }
  auto& entries = *channel.entries;
  std::size_t original = entries.size();
  std::vector<std::size_t> replaced;
  for (std::size_t i = 0; i < original; ++i) {
    if (entries[i].name == base) {
      replaced.push_back(i);
    }
  }
  for (auto i = replaced.rbegin(); i != replaced.rend(); ++i) {
    auto& old = entries[*i];
    catalog::ChannelEntry added{substitute, old.replaces, old.skips, old.skip_range};
    added.skips.push_back(base);
    old.replaces.clear();
    old.skips.clear();
    old.skip_range.clear();
    entries.push_back(std::move(added));
  }
  for (std::size_t i = 0; i < original; ++i) {
    auto& entry = entries[i];
    if (entry.replaces == base) {
      entry.replaces = substitute;
      entry.skips.push_back(base);
    } else if (std::ranges::find(entry.skips, base) != entry.skips.end()) {
      entry.skips.push_back(substitute);
      std::erase(entry.skips, base);
    }
  }
}

Result<void> apply(catalog::DeclarativeConfig& cfg, const Substitution& s,
                   const RenderBundles& render_bundles) {
  auto substitute = OPM_TRY(substitute_bundle(cfg, s, render_bundles));
  for (auto& channel : cfg.channels) {
    substitute_in_channel(channel, s.base, substitute.name);
  }
  cfg.bundles.push_back(std::move(substitute));
  return check_model(cfg, "resulting config is not valid FBC");
}

} // namespace

Result<catalog::DeclarativeConfig> render_substitutes(std::string_view input,
                                                      const RenderBundles& render_bundles) {
  auto wrapped = detail::wrapped_template(input, k_substitutes_schema);
  if (!wrapped) {
    return std::unexpected(std::move(wrapped).error().wrap("render: unable to parse template"));
  }
  const Json* entries = json::find_member(*wrapped, "entries");
  auto cfg = detail::load_entries(entries != nullptr ? *entries : Json());
  if (!cfg) {
    return std::unexpected(
        std::move(cfg).error().wrap("render: unable to create declarative config from entries"));
  }
  OPM_TRY(check_model(*cfg, "render: entries are not valid FBC"));
  std::map<std::string, bool, std::less<>> seen_bases;
  std::map<std::string, std::string, std::less<>> seen_names;
  for (const auto& s : substitutions_of(*wrapped)) {
    if (!seen_bases.emplace(s.base, true).second) {
      return util::fail(Errc::invalid, fmt::format("render: cannot reuse the same substitution "
                                                   "base {}",
                                                   util::go_quote(s.base)));
    }
    if (auto [it, added] = seen_names.emplace(s.name, s.base); !added) {
      return util::fail(Errc::invalid,
                        fmt::format("render: cannot reuse the same substitution {} for different "
                                    "bases ({} and {})",
                                    util::go_quote(s.name), util::go_quote(it->second),
                                    util::go_quote(s.base)));
    }
    if (auto done = apply(*cfg, s, render_bundles); !done) {
      return std::unexpected(std::move(done).error().wrap(
          fmt::format("render: error processing substitution {} -> {}", util::go_quote(s.base),
                      util::go_quote(s.name))));
    }
  }
  return cfg;
}

} // namespace opm::templates
