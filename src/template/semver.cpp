#include "util/semver.hpp"

#include "catalog/bundle_version.hpp"
#include "catalog/decode.hpp"
#include "catalog/property.hpp"
#include "json/unmarshal.hpp"
#include "template/detail/common.hpp"
#include "template/template.hpp"
#include "util/base64.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace opm::templates {

namespace {

namespace semver = util::semver;

constexpr std::string_view k_semver_schema = "olm.semver";

enum class StreamKind { none = 0, major = 1, minor = 2 };

// Archetypes in increasing stability; the index is the priority.
constexpr std::array<std::string_view, 3> k_archetypes{"candidate", "fast", "stable"};

struct SemverTemplate {
  std::string schema;
  bool generate_major = false;
  bool generate_minor = false;
  std::string preference;
  std::array<std::vector<std::string>, 3> images; // per archetype
};

// ---- strict decoding (sigs.k8s.io/yaml UnmarshalStrict) -----------------------------------

const json::Field k_entry_fields[] = {{"image", &json::k_string}};
const json::Type k_entry =
    json::Type::structure("semver.bundleEntry", "bundleEntry", k_entry_fields);
const json::Type k_entries =
    json::Type::container(json::Kind::slice, "[]semver.bundleEntry", k_entry);
const json::Field k_channel_fields[] = {{"bundles", &k_entries}};
const json::Type k_channel =
    json::Type::structure("semver.channelBundles", "channelBundles", k_channel_fields);
const json::Field k_template_fields[] = {
    {"schema", &json::k_string},
    {"generateMajorChannels", &json::k_bool},
    {"generateMinorChannels", &json::k_bool},
    {"defaultChannelTypePreference", &json::k_string},
    {"candidate", &k_channel},
    {"fast", &k_channel},
    {"stable", &k_channel},
};
const json::Type k_template =
    json::Type::structure("semver.SemverTemplateData", "SemverTemplateData", k_template_fields);

// The first member Go's DisallowUnknownFields would refuse, depth first in member order.
std::optional<std::string> unknown_field(const Json& value, const json::Type& type) {
  if (type.kind == json::Kind::slice && value.is_array()) {
    for (const auto& item : value) {
      if (auto found = unknown_field(item, *type.elem)) {
        return found;
      }
    }
  }
  if (type.kind != json::Kind::structure || !value.is_object()) {
    return std::nullopt;
  }
  for (const auto& [key, member] : value.items()) {
    auto field = std::ranges::find_if(
        type.fields, [&](const json::Field& f) { return json::key_matches(key, f.json); });
    if (field == type.fields.end()) {
      return key;
    }
    if (auto found = unknown_field(member, *field->type)) {
      return found;
    }
  }
  return std::nullopt;
}

std::string string_member(const Json& object, std::string_view name) {
  const Json* found = json::find_member(object, name);
  return found != nullptr && found->is_string() ? found->get<std::string>() : std::string();
}

bool bool_member(const Json& object, std::string_view name) {
  const Json* found = json::find_member(object, name);
  return found != nullptr && found->is_boolean() && found->get<bool>();
}

std::vector<std::string> images_of(const Json& object, std::string_view archetype) {
  std::vector<std::string> images;
  const Json* channel = json::find_member(object, archetype);
  const Json* bundles =
      channel != nullptr && channel->is_object() ? json::find_member(*channel, "bundles") : nullptr;
  if (bundles != nullptr && bundles->is_array()) {
    for (const auto& entry : *bundles) {
      images.push_back(entry.is_object() ? string_member(entry, "image") : std::string());
    }
  }
  return images;
}

Result<SemverTemplate> decode_template(std::string_view input) {
  auto value = catalog::yaml_to_json(input);
  if (!value) {
    return util::fail(Errc::invalid, "error converting YAML to JSON: " + value.error().message());
  }
  if (value->is_null()) {
    *value = Json::object();
  }
  auto unknown = unknown_field(*value, k_template);
  auto mistyped = json::check(*value, k_template);
  if (unknown || mistyped) {
    auto text =
        unknown ? fmt::format("json: unknown field {}", util::go_quote(*unknown)) : *mistyped;
    return util::fail(Errc::invalid, "error unmarshaling JSON: while decoding JSON: " + text);
  }
  SemverTemplate t;
  t.schema = string_member(*value, "schema");
  t.generate_major = bool_member(*value, "generateMajorChannels");
  t.generate_minor = bool_member(*value, "generateMinorChannels");
  t.preference = string_member(*value, "defaultChannelTypePreference");
  for (std::size_t a = 0; a < k_archetypes.size(); ++a) {
    t.images[a] = images_of(*value, k_archetypes[a]);
  }
  return t;
}

Result<SemverTemplate> read_template(std::string_view input) {
  auto t = OPM_TRY(decode_template(input));
  if (t.schema != k_semver_schema) {
    return util::fail(Errc::invalid,
                      fmt::format("readFile: input file has unknown schema, should be {}",
                                  util::go_quote(k_semver_schema)));
  }
  if (!t.generate_major && !t.generate_minor) {
    t.generate_minor = true;
  }
  if (t.preference.empty()) {
    t.preference = t.generate_minor ? "minor" : "major";
  } else if (t.preference == "minor" || t.preference == "major") {
    bool generating = t.preference == "minor" ? t.generate_minor : t.generate_major;
    if (!generating) {
      return util::fail(Errc::invalid,
                        fmt::format("schema attribute mismatch: DefaultChannelTypePreference set "
                                    "to '{0}' doesn't make sense if not generating "
                                    "{0}-version channels",
                                    t.preference));
    }
  } else {
    return util::fail(Errc::invalid,
                      fmt::format("unknown DefaultChannelTypePreference: {}\nValid values are "
                                  "'major' or 'minor'",
                                  util::go_quote(t.preference)));
  }
  return t;
}

// ---- bundle versions ------------------------------------------------------------------------

struct Versioned {
  std::string name;
  semver::Version version;
};

struct Collected {
  std::string package;
  std::array<std::vector<Versioned>, 3> bundles; // per archetype, in template order
};

Result<Versioned> version_of(const catalog::Bundle& b) {
  auto version = OPM_TRY(catalog::bundle_version(b));
  return Versioned{b.name, std::move(version)};
}

std::string without_build(semver::Version v) {
  v.build.clear();
  return v.to_string();
}

// Versions that differ only by build metadata cannot be ordered (upstream checks each
// archetype's bundles in map order; here in template order).
Result<void> check_build_metadata(const std::vector<Versioned>& bundles) {
  std::set<std::string> seen;
  std::vector<std::string> problems;
  for (const auto& b : bundles) {
    auto stripped = without_build(b.version);
    if (!seen.insert(stripped).second) {
      problems.push_back(fmt::format("bundle version {} cannot be compared to {}",
                                     util::go_quote(b.version.to_string()),
                                     util::go_quote(stripped)));
    }
  }
  if (problems.empty()) {
    return {};
  }
  auto aggregate = problems.size() == 1 ? problems.front() : "[" + util::join(problems, ", ") + "]";
  return util::fail(Errc::invalid, "encountered bundle versions which differ only by build "
                                   "metadata, which cannot be ordered: " +
                                       aggregate);
}

Result<void> collect_archetype(const std::vector<std::string>& images,
                               const detail::RenderedRefs& rendered,
                               catalog::DeclarativeConfig& out, Collected& collected,
                               std::vector<Versioned>& bundles) {
  std::set<std::string> names;
  for (const auto& image : images) {
    auto found = rendered.find(image);
    if (found == rendered.end() || found->second.bundles.empty()) {
      return util::fail(Errc::invalid,
                        fmt::format("supplied bundle image name {} not found in rendered bundle "
                                    "images",
                                    util::go_quote(image)));
    }
    const auto& bundle = found->second.bundles.front();
    auto versioned = OPM_TRY(version_of(bundle));
    auto package = catalog::property::parse(bundle.properties)->packages.front().package_name;
    if (collected.package.empty()) {
      collected.package = package;
      catalog::Package created;
      created.name = package;
      out.packages.push_back(std::move(created));
    } else if (package != collected.package) {
      return util::fail(Errc::invalid,
                        fmt::format("bundle {} does not belong to this package: {}",
                                    util::go_quote(package), util::go_quote(collected.package)));
    }
    if (!names.insert(bundle.name).second) {
      return util::fail(Errc::invalid,
                        fmt::format("duplicate bundle name {}", util::go_quote(bundle.name)));
    }
    bundles.push_back(std::move(versioned));
  }
  return check_build_metadata(bundles);
}

Result<Collected> collect(const SemverTemplate& t, const detail::RenderedRefs& rendered,
                          catalog::DeclarativeConfig& out) {
  Collected collected;
  for (std::size_t a = 0; a < k_archetypes.size(); ++a) {
    auto done = collect_archetype(t.images[a], rendered, out, collected, collected.bundles[a]);
    if (!done) {
      return std::unexpected(std::move(done).error().wrap("render: unable to post-process bundle "
                                                          "info"));
    }
  }
  return collected;
}

// ---- channels -----------------------------------------------------------------------------

struct Tuple {
  std::size_t archetype = 0;
  StreamKind kind = StreamKind::none;
  std::string channel;
  std::size_t index = 0;
  std::string name;
  semver::Version version;
};

struct HighWater {
  std::size_t archetype = 0;
  StreamKind kind = StreamKind::none;
  semver::Version version;
  std::string name;
};

bool higher(const HighWater& a, const HighWater& b, StreamKind preferred) {
  if (a.archetype != b.archetype) {
    return a.archetype > b.archetype;
  }
  if (auto c = semver::compare(a.version, b.version); c != 0) {
    return c > 0;
  }
  if (a.kind != b.kind) {
    if (a.kind == preferred) {
      return true;
    }
    if (b.kind == preferred) {
      return false;
    }
    return a.kind > b.kind;
  }
  return false;
}

std::string channel_name(std::size_t archetype, StreamKind kind, const semver::Version& v) {
  if (kind == StreamKind::major) {
    return fmt::format("{}-v{}", k_archetypes[archetype], v.major);
  }
  return fmt::format("{}-v{}.{}", k_archetypes[archetype], v.major, v.minor);
}

using Channels = std::map<std::string, catalog::Channel, std::less<>>;

void finalise(Channels& channels, const Tuple& t, const std::string& replaces,
              const std::set<std::string>& skips) {
  auto& entry = channels.at(t.channel).entries->at(t.index);
  entry.replaces = replaces;
  for (const auto& skip : skips) {
    if (skip != replaces) {
      entry.skips.push_back(skip); // std::set keeps them sorted as strings
    }
  }
}

void link(Channels& channels, std::vector<Tuple> tuples) {
  std::ranges::stable_sort(tuples, [](const Tuple& a, const Tuple& b) {
    if (a.archetype != b.archetype) {
      return a.archetype < b.archetype;
    }
    if (a.kind != b.kind) {
      return a.kind < b.kind;
    }
    return semver::compare(a.version, b.version) < 0;
  });
  std::string zmax;
  std::set<std::string> skips;
  for (std::size_t i = 1; i < tuples.size(); ++i) {
    const auto& prev = tuples[i - 1];
    const auto& cur = tuples[i];
    bool stream_change = prev.archetype != cur.archetype || prev.kind != cur.kind ||
                         prev.version.major != cur.version.major;
    bool minor_change = prev.version.minor != cur.version.minor;
    if (stream_change || minor_change) {
      finalise(channels, prev, zmax, skips);
    }
    if (stream_change) {
      zmax.clear();
      skips.clear();
    } else {
      if (minor_change) {
        zmax = prev.name;
      }
      skips.insert(prev.name);
    }
  }
  if (tuples.size() > 1) {
    const auto& last = tuples.back();
    const auto& before = tuples[tuples.size() - 2];
    if (last.archetype == before.archetype && last.kind == before.kind &&
        last.version.major == before.version.major) {
      finalise(channels, last, zmax, skips);
    }
  }
}

struct Generated {
  std::vector<catalog::Channel> channels; // sorted by name
  std::string default_channel;
};

Generated generate(const SemverTemplate& t, Collected& collected) {
  StreamKind preferred = t.preference == "major" ? StreamKind::major : StreamKind::minor;
  std::vector<StreamKind> kinds;
  if (t.generate_major) {
    kinds.push_back(StreamKind::major);
  }
  if (t.generate_minor) {
    kinds.push_back(StreamKind::minor);
  }
  Channels channels;
  std::vector<Tuple> tuples;
  HighWater best;
  for (std::size_t a = 0; a < k_archetypes.size(); ++a) {
    auto& bundles = collected.bundles[a];
    std::ranges::stable_sort(bundles, [](const Versioned& x, const Versioned& y) {
      return semver::compare(x.version, y.version) < 0;
    });
    for (const auto& b : bundles) {
      for (auto kind : kinds) {
        auto name = channel_name(a, kind, b.version);
        auto [it, created] = channels.try_emplace(name);
        auto& channel = it->second;
        if (created) {
          channel.name = name;
          channel.package = collected.package;
          channel.entries.emplace();
          HighWater candidate{a, kind, b.version, name};
          if (higher(candidate, best, preferred)) {
            best = std::move(candidate);
          }
        }
        catalog::ChannelEntry entry;
        entry.name = b.name;
        channel.entries->push_back(std::move(entry));
        tuples.push_back({a, kind, name, channel.entries->size() - 1, b.name, b.version});
      }
    }
  }
  link(channels, std::move(tuples));
  Generated out;
  out.default_channel = best.name;
  for (auto& [name, channel] : channels) {
    out.channels.push_back(std::move(channel));
  }
  return out;
}

const json::Type k_icon_bytes = json::Type::scalar(json::Kind::bytes, "[]uint8");
const json::Field k_icon_fields[] = {{"mediatype", &json::k_string}, {"base64data", &k_icon_bytes}};
const json::Type k_icon = json::Type::structure("registry.Icon", "Icon", k_icon_fields);
const json::Type k_icons = json::Type::container(json::Kind::slice, "[]registry.Icon", k_icon);

// Description and first icon of the default channel's newest bundle's CSV; nothing when the
// CSV lacks them or they do not decode.
void add_package_metadata(catalog::DeclarativeConfig& out) {
  auto& pkg = out.packages.front();
  auto channel = std::ranges::find(out.channels, pkg.default_channel, &catalog::Channel::name);
  if (channel == out.channels.end() || !channel->entries || channel->entries->empty()) {
    return;
  }
  const auto& head = channel->entries->back().name;
  auto bundle = std::ranges::find(out.bundles, head, &catalog::Bundle::name);
  if (bundle == out.bundles.end() || bundle->csv_json().empty()) {
    return;
  }
  auto csv = Json::parse(bundle->csv_json(), nullptr, false);
  const Json* spec = csv.is_object() ? json::find_member(csv, "spec") : nullptr;
  if (spec == nullptr || !spec->is_object()) {
    return;
  }
  if (auto d = spec->find("description"); d != spec->end() && d->is_string()) {
    pkg.description = d->get<std::string>();
  }
  auto icons = spec->find("icon");
  if (icons == spec->end() || !icons->is_array() || icons->empty() ||
      json::check(*icons, k_icons)) {
    return;
  }
  const auto& first = icons->front();
  std::string data;
  if (const Json* b64 = json::find_member(first, "base64data");
      b64 != nullptr && b64->is_string()) {
    auto decoded = util::base64_decode(b64->get<std::string>());
    if (!decoded) {
      return;
    }
    data = std::move(*decoded);
  }
  pkg.icon = catalog::Icon{std::move(data), string_member(first, "mediatype")};
}

std::vector<std::string> all_images(const SemverTemplate& t) {
  std::vector<std::string> images;
  for (const auto& list : t.images) {
    images.insert(images.end(), list.begin(), list.end());
  }
  return images;
}

} // namespace

Result<catalog::DeclarativeConfig> render_semver(std::string_view input,
                                                 const RenderBundles& render_bundles) {
  auto t = read_template(input);
  if (!t) {
    return std::unexpected(std::move(t).error().wrap("render: unable to read file"));
  }
  auto rendered = OPM_TRY(detail::render_distinct(all_images(*t), render_bundles));
  catalog::DeclarativeConfig out;
  for (auto& [ref, cfg] : rendered) {
    if (cfg.bundles.size() != 1) {
      return util::fail(Errc::invalid,
                        fmt::format("bundle reference {} resulted in {} bundles, expected 1",
                                    util::go_quote(ref), cfg.bundles.size()));
    }
    out.bundles.push_back(cfg.bundles.front());
  }
  if (out.bundles.empty()) {
    return util::fail(Errc::invalid, "render: no bundles specified or no bundles could be "
                                     "rendered");
  }
  auto collected = OPM_TRY(collect(*t, rendered, out));
  auto generated = generate(*t, collected);
  out.channels = std::move(generated.channels);
  out.packages.front().default_channel = generated.default_channel;
  add_package_metadata(out);
  return out;
}

} // namespace opm::templates
