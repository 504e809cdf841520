#include "sqlite/export.hpp"

#include "json/text.hpp"
#include "sqlite/connection.hpp"
#include "sqlite/detail/bundle_edges_sql.hpp"
#include "sqlite/detail/stored_json.hpp"
#include "sqlite/migrations.hpp"
#include "sqlite/typed_value.hpp"
#include "util/base64.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <set>

namespace opm::sqlite {

namespace {

// One row per (bundle, package, channel), from the shared edge expressions.
constexpr std::string_view k_bundle_rows_select = R"(
SELECT ob.bundle, ob.bundlepath, ob.name, r.package_name, r.channel_name, r.replaces, s.skips,
       ob.version, ob.skiprange, d.list, p.list
  FROM bundle_replaces AS r
    INNER JOIN operatorbundle AS ob ON r.operatorbundle_name = ob.name
    LEFT OUTER JOIN bundle_skips AS s
      ON r.operatorbundle_name = s.operatorbundle_name AND r.package_name = s.package_name
         AND r.channel_name = s.channel_name
    LEFT OUTER JOIN bundle_dependencies AS d ON ob.name = d.name
    LEFT OUTER JOIN bundle_properties AS p ON ob.name = p.name
)";

struct BundleRow {
  std::string name;
  std::string package;
  std::string channel;
  std::string image;
  std::string version;
  std::string replaces;
  std::vector<std::string> skips;
  std::string skip_range;
  std::vector<std::string> objects;
  std::optional<std::size_t> csv_index;
  std::vector<TypedValue> properties;
  std::vector<TypedValue> dependencies;
};

struct ChannelModel {
  std::map<std::string, BundleRow> bundles;
};

struct PackageModel {
  std::string name;
  std::string default_channel; // empty when the stored one names no channel
  std::map<std::string, ChannelModel> channels;
  std::optional<catalog::Icon> icon;
};

Result<void> read_objects(std::string_view text, BundleRow& row) {
  row.objects = OPM_TRY(detail::split_objects(text));
  for (std::size_t i = 0; i < row.objects.size(); ++i) {
    if (detail::string_member(row.objects[i], {"kind"}) == "ClusterServiceVersion") {
      row.csv_index = i;
      return {};
    }
  }
  return util::fail(Errc::invalid, "no csv in bundle");
}

// A json_group_array of {type, value}, deduplicated on (type, value), first kept.
Result<std::vector<TypedValue>> typed_values(const std::optional<std::string>& list) {
  std::vector<TypedValue> out;
  if (!list) {
    return out;
  }
  auto parsed = OPM_TRY(json::text::parse(*list));
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& e : parsed) {
    TypedValue tv;
    if (e.contains("type") && e["type"].is_string()) {
      tv.type = e["type"].get<std::string>();
    }
    if (e.contains("value") && e["value"].is_string()) {
      tv.value = e["value"].get<std::string>();
    }
    if (seen.emplace(tv.type, tv.value).second) {
      out.push_back(std::move(tv));
    }
  }
  return out;
}

Result<std::map<std::string, PackageModel>> read_packages(Connection& db) {
  auto names = OPM_TRY(db.prepare("SELECT DISTINCT name FROM package"));
  auto channels =
      OPM_TRY(db.prepare("SELECT DISTINCT package.name, default_channel, channel.name, "
                         "channel.head_operatorbundle_name FROM package INNER JOIN channel ON "
                         "channel.package_name=package.name WHERE package.name=?"));
  std::map<std::string, PackageModel> packages;
  while (OPM_TRY(names.step())) {
    auto name = names.text(0);
    if (!name) {
      continue;
    }
    channels.reset();
    channels.bind(1, *name);
    PackageModel pkg;
    std::string stored_default;
    bool any = false;
    while (OPM_TRY(channels.step())) {
      any = true;
      pkg.name = channels.text_or_empty(0);
      stored_default = channels.text_or_empty(1);
      pkg.channels[channels.text_or_empty(2)];
    }
    if (!any) {
      return util::fail(Errc::invalid, fmt::format("package {} not found", *name));
    }
    if (pkg.channels.contains(stored_default)) {
      pkg.default_channel = stored_default;
    }
    auto key = pkg.name;
    packages[key] = std::move(pkg);
  }
  return packages;
}

Result<void> read_bundles(Connection& db, std::map<std::string, PackageModel>& packages) {
  auto rows =
      OPM_TRY(db.prepare(std::string(detail::k_bundle_edges) + std::string(k_bundle_rows_select)));
  while (OPM_TRY(rows.step())) {
    // Rows without a name, version, image or channel are not served upstream either.
    if (rows.is_null(2) || rows.is_null(7) || rows.is_null(1) || rows.is_null(4)) {
      continue;
    }
    BundleRow row;
    if (auto text = rows.text(0); text && !text->empty()) {
      OPM_TRY(read_objects(*text, row));
    }
    row.image = rows.text_or_empty(1);
    row.name = rows.text_or_empty(2);
    row.package = rows.text_or_empty(3);
    row.channel = rows.text_or_empty(4);
    row.replaces = rows.text_or_empty(5);
    if (auto skips = rows.text(6)) {
      row.skips = util::split(*skips, ',');
    }
    row.version = rows.text_or_empty(7);
    row.skip_range = rows.text_or_empty(8);
    row.dependencies = OPM_TRY(typed_values(rows.text(9)));
    row.properties = OPM_TRY(typed_values(rows.text(10)));
    if (std::ranges::any_of(row.properties,
                            [](const TypedValue& p) { return p.type == "olm.deprecated"; })) {
      continue;
    }
    auto pkg = packages.find(row.package);
    if (pkg == packages.end()) {
      return util::fail(Errc::invalid, fmt::format("unknown package \"{}\" for bundle \"{}\"",
                                                   row.package, row.name));
    }
    auto channel = pkg->second.channels.find(row.channel);
    if (channel == pkg->second.channels.end()) {
      return util::fail(Errc::invalid, fmt::format("unknown channel \"{}\" for bundle \"{}\"",
                                                   row.channel, row.name));
    }
    auto key = row.name;
    channel->second.bundles[key] = std::move(row);
  }
  return {};
}

// The icon of the CSV stored for the head of the package's default channel.
Result<void> read_icon(Connection& db, PackageModel& pkg) {
  if (pkg.default_channel.empty()) {
    return {};
  }
  auto head = OPM_TRY(db.prepare(
      "SELECT operatorbundle.name, operatorbundle.csv FROM operatorbundle INNER JOIN channel ON "
      "channel.head_operatorbundle_name = operatorbundle.name WHERE channel.name = ? AND "
      "channel.package_name = ?"));
  head.bind(1, pkg.default_channel).bind(2, pkg.name);
  if (!OPM_TRY(head.step())) {
    return util::fail(Errc::invalid,
                      fmt::format("populate package icons: get default channel head for package "
                                  "\"{}\": no entry found for {} {}",
                                  pkg.name, pkg.name, pkg.default_channel));
  }
  std::string name = head.text_or_empty(0);
  auto csv = json::text::parse(head.text_or_empty(1));
  if (!csv) {
    return util::fail(Errc::invalid,
                      fmt::format("populate package icons: unmarshal CSV json for bundle \"{}\": "
                                  "unexpected end of JSON input",
                                  name));
  }
  const Json* icons = nullptr;
  if (csv->is_object() && csv->contains("spec") && (*csv)["spec"].is_object() &&
      (*csv)["spec"].contains("icon")) {
    icons = &(*csv)["spec"]["icon"];
  }
  if (icons == nullptr || !icons->is_array() || icons->empty() || !(*icons)[0].is_object()) {
    return {};
  }
  const Json& first = (*icons)[0];
  auto field = [&](const char* key) {
    return first.contains(key) && first[key].is_string() ? first[key].get<std::string>()
                                                         : std::string();
  };
  std::string data = field("base64data");
  auto decoded = util::base64_decode(data);
  if (!decoded) {
    std::erase(data, ' ');
    decoded = util::base64_decode(data);
    if (!decoded) {
      return {}; // upstream warns and goes on without an icon
    }
  }
  if (!decoded->empty()) {
    pkg.icon = catalog::Icon{std::move(*decoded), field("mediatype")};
  }
  return {};
}

catalog::Property property(std::string type, std::string_view text) {
  catalog::Property p;
  p.type = std::move(type);
  p.raw = json::text::compact(text);
  if (auto value = json::text::parse(p.raw)) {
    p.value = std::move(*value);
  }
  return p;
}

Json gvk_json(const Json& v) {
  auto field = [&](const char* key) {
    return v.is_object() && v.contains(key) && v[key].is_string() ? v[key].get<std::string>()
                                                                  : std::string();
  };
  return Json{{"group", field("group")}, {"kind", field("kind")}, {"version", field("version")}};
}

catalog::Property built(std::string type, Json value) {
  catalog::Property p;
  p.type = std::move(type);
  p.value = std::move(value);
  return p;
}

std::string sort_text(const catalog::Property& p) { return p.raw.empty() ? p.value.dump() : p.raw; }

// The olm.bundle's properties from the stored rows: olm.package kept (or made from the
// columns), olm.gvk and olm.gvk.required as sets, olm.package dependencies as
// olm.package.required; other dependency types are not carried over.
Result<std::vector<catalog::Property>> bundle_properties(const BundleRow& row) {
  std::vector<catalog::Property> out;
  std::set<Json> provided;
  std::set<Json> required;
  bool has_package = false;
  for (const auto& p : row.properties) {
    if (p.type == "olm.gvk") {
      auto v = json::text::parse(p.value);
      if (!v) {
        return std::unexpected(std::move(v).error().wrap(fmt::format(
            "convert bundle \"{}\": convert properties: parse property of type \"olm.gvk\"",
            row.name)));
      }
      provided.insert(gvk_json(*v));
      continue;
    }
    has_package = has_package || p.type == "olm.package";
    out.push_back(property(p.type, p.value));
  }
  for (const auto& d : row.dependencies) {
    auto v = json::text::parse(d.value);
    if (d.type == "olm.gvk" && v) {
      required.insert(gvk_json(*v));
    } else if (d.type == "olm.package" && v && v->is_object()) {
      auto name = v->contains("packageName") && (*v)["packageName"].is_string()
                      ? (*v)["packageName"].get<std::string>()
                      : std::string();
      auto range = v->contains("version") && (*v)["version"].is_string()
                       ? (*v)["version"].get<std::string>()
                       : std::string();
      out.push_back(
          built("olm.package.required", Json{{"packageName", name}, {"versionRange", range}}));
    }
  }
  if (!has_package) {
    out.push_back(
        built("olm.package", Json{{"packageName", row.package}, {"version", row.version}}));
  }
  for (const auto& g : provided) {
    out.push_back(built("olm.gvk", g));
  }
  for (const auto& g : required) {
    out.push_back(built("olm.gvk.required", g));
  }
  return out;
}

std::vector<catalog::RelatedImage> csv_related_images(const BundleRow& row) {
  std::vector<catalog::RelatedImage> images;
  if (!row.csv_index) {
    return images;
  }
  auto raw = json::text::find_raw(row.objects[*row.csv_index], {"spec", "relatedImages"});
  auto parsed = raw.empty() ? Result<Json>(Json()) : json::text::parse(raw);
  if (!parsed || !parsed->is_array()) {
    return images;
  }
  for (const auto& ri : *parsed) {
    auto field = [&](const char* key) {
      return ri.is_object() && ri.contains(key) && ri[key].is_string() ? ri[key].get<std::string>()
                                                                       : std::string();
    };
    images.push_back({field("name"), field("image")});
  }
  return images;
}

Result<std::map<std::string, std::set<std::string>>> database_images(Connection& db) {
  auto rows = OPM_TRY(db.prepare("SELECT image, operatorbundle_name FROM related_image"));
  std::map<std::string, std::set<std::string>> images;
  while (OPM_TRY(rows.step())) {
    if (!rows.is_null(0) && !rows.is_null(1)) {
      images[rows.text_or_empty(1)].insert(rows.text_or_empty(0));
    }
  }
  return images;
}

catalog::Property object_property(std::string_view object) {
  return built("olm.bundle.object", Json{{"data", util::base64_encode(object)}});
}

Result<catalog::Bundle> merge_bundle(const std::vector<const BundleRow*>& copies) {
  const BundleRow& first = *copies.front();
  catalog::Bundle b;
  b.name = first.name;
  b.package = first.package;
  b.image = first.image;
  b.related_images = csv_related_images(first);
  b.objects = first.objects;
  b.csv_index = first.csv_index;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto* row : copies) {
    for (auto& p : OPM_TRY(bundle_properties(*row))) {
      if (seen.emplace(p.type, sort_text(p)).second) {
        b.properties.push_back(std::move(p));
      }
    }
  }
  std::stable_sort(b.properties.begin(), b.properties.end(),
                   [](const catalog::Property& x, const catalog::Property& y) {
                     if (x.type != y.type) {
                       return x.type < y.type;
                     }
                     return sort_text(x) < sort_text(y);
                   });
  for (const auto& object : b.objects) {
    b.properties.push_back(object_property(object));
  }
  return b;
}

void add_database_images(catalog::Bundle& b,
                         const std::map<std::string, std::set<std::string>>& images) {
  auto it = images.find(b.name);
  if (it == images.end()) {
    return;
  }
  for (const auto& image : it->second) {
    bool listed = std::ranges::any_of(
        b.related_images, [&](const catalog::RelatedImage& ri) { return ri.image == image; });
    if (!listed) {
      b.related_images.push_back({"", image});
    }
  }
}

} // namespace

Result<catalog::DeclarativeConfig> to_declcfg(Connection& db) {
  auto packages = OPM_TRY(read_packages(db));
  OPM_TRY(read_bundles(db, packages));
  for (auto& [_, pkg] : packages) {
    OPM_TRY(read_icon(db, pkg));
  }
  auto images = OPM_TRY(database_images(db));
  catalog::DeclarativeConfig cfg;
  for (auto& [name, pkg] : packages) {
    cfg.packages.push_back({.name = pkg.name,
                            .default_channel = pkg.default_channel,
                            .icon = pkg.icon,
                            .description = {},
                            .properties = {},
                            .where = {}});
    std::map<std::string, std::vector<const BundleRow*>> copies;
    for (const auto& [channel_name, channel] : pkg.channels) {
      catalog::Channel c;
      c.name = channel_name;
      c.package = pkg.name;
      c.entries.emplace();
      for (const auto& [bundle_name, row] : channel.bundles) {
        c.entries->push_back({row.name, row.replaces, row.skips, row.skip_range});
        copies[bundle_name].push_back(&row);
      }
      cfg.channels.push_back(std::move(c));
    }
    for (const auto& [_, rows] : copies) {
      auto bundle = OPM_TRY(merge_bundle(rows));
      add_database_images(bundle, images);
      std::stable_sort(bundle.related_images.begin(), bundle.related_images.end(),
                       [](const catalog::RelatedImage& x, const catalog::RelatedImage& y) {
                         return x.image < y.image;
                       });
      cfg.bundles.push_back(std::move(bundle));
    }
  }
  return cfg;
}

Result<catalog::DeclarativeConfig> read_file(const std::filesystem::path& path) {
  std::error_code ec;
  // Upstream creates a missing database file and reads it empty; nothing is created here.
  if (!std::filesystem::exists(path, ec) && !path.parent_path().empty() &&
      std::filesystem::is_directory(path.parent_path(), ec)) {
    return catalog::DeclarativeConfig{};
  }
  auto db = OPM_TRY(Connection::open(path, OpenMode::read_only));
  if (OPM_TRY(schema_version(db)) >= k_latest_schema_version) {
    return to_declcfg(db);
  }
  auto writable = OPM_TRY(Connection::open_private_copy(path));
  OPM_TRY(migrate(writable));
  return to_declcfg(writable);
}

} // namespace opm::sqlite
