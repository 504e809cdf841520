#include "serve/cache_json.hpp"

#include "json/text.hpp"
#include "json/writer.hpp"
#include "util/base64.hpp"

namespace opm::serve {

namespace {

void string_member(json::Writer& w, std::string_view key, std::string_view value) {
  if (!value.empty()) {
    w.key(key);
    w.string(value);
  }
}

void deprecation_member(json::Writer& w, const std::optional<std::string>& message) {
  if (message) {
    w.key("deprecation");
    w.begin_object();
    w.key("message");
    w.string(*message);
    w.end_object();
  }
}

void gvks_member(json::Writer& w, std::string_view key,
                 const google::protobuf::RepeatedPtrField<api::GroupVersionKind>& gvks) {
  if (gvks.empty()) {
    return;
  }
  w.key(key);
  w.begin_array();
  for (const auto& g : gvks) {
    w.begin_object();
    string_member(w, "group", g.group());
    string_member(w, "version", g.version());
    string_member(w, "kind", g.kind());
    string_member(w, "plural", g.plural());
    w.end_object();
  }
  w.end_array();
}

template <typename Pairs>
void type_values_member(json::Writer& w, std::string_view key, const Pairs& pairs) {
  if (pairs.empty()) {
    return;
  }
  w.key(key);
  w.begin_array();
  for (const auto& p : pairs) {
    w.begin_object();
    string_member(w, "type", p.type());
    string_member(w, "value", p.value());
    w.end_object();
  }
  w.end_array();
}

template <typename Strings> void string_array(json::Writer& w, const Strings& values) {
  w.begin_array();
  for (const auto& v : values) {
    w.string(v);
  }
  w.end_array();
}

template <typename Strings>
void strings_member(json::Writer& w, std::string_view key, const Strings& values) {
  if (!values.empty()) {
    w.key(key);
    string_array(w, values);
  }
}

void bundle_entry(json::Writer& w, const IndexPackage& pkg, const IndexChannel& ch,
                  const IndexEntry& e) {
  w.begin_object();
  w.key("package");
  w.string(pkg.name);
  w.key("channel");
  w.string(ch.name);
  w.key("name");
  w.string(e.name);
  w.key("replaces");
  w.string(e.replaces);
  w.key("skips");
  if (e.skips.empty()) {
    w.literal("null");
  } else {
    string_array(w, e.skips);
  }
  w.end_object();
}

void channel_object(json::Writer& w, const IndexPackage& pkg, const IndexChannel& ch) {
  w.begin_object();
  w.key("Name");
  w.string(ch.name);
  w.key("Head");
  w.string(ch.head);
  w.key("Bundles");
  w.begin_object();
  for (const auto& [name, e] : ch.entries) {
    w.key(name);
    bundle_entry(w, pkg, ch, e);
  }
  w.end_object();
  deprecation_member(w, ch.deprecation);
  w.end_object();
}

void icon_member(json::Writer& w, const std::optional<IndexIcon>& icon) {
  w.key("icon");
  if (!icon) {
    w.literal("null");
    return;
  }
  w.begin_object();
  w.key("base64data");
  if (icon->data) {
    w.string(util::base64_encode(*icon->data));
  } else {
    w.literal("null");
  }
  w.key("mediatype");
  w.string(icon->mediatype);
  w.end_object();
}

std::string string_at(const Json& obj, std::string_view key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<std::string> deprecation_at(const Json& obj) {
  auto it = obj.find("deprecation");
  if (it == obj.end() || !it->is_object()) {
    return std::nullopt;
  }
  return string_at(*it, "message");
}

Result<IndexChannel> parse_channel(const Json& c) {
  IndexChannel ch;
  ch.name = string_at(c, "Name");
  ch.head = string_at(c, "Head");
  ch.deprecation = deprecation_at(c);
  if (auto b = c.find("Bundles"); b != c.end() && b->is_object()) {
    for (const auto& [name, e] : b->items()) {
      IndexEntry entry;
      entry.name = string_at(e, "name");
      entry.replaces = string_at(e, "replaces");
      if (auto s = e.find("skips"); s != e.end() && s->is_array()) {
        for (const auto& skip : *s) {
          entry.skips.push_back(skip.is_string() ? skip.get<std::string>() : std::string());
        }
      }
      ch.entries.emplace(name, std::move(entry));
    }
  }
  return ch;
}

} // namespace

std::string packages_json(const PackageIndex& index) {
  std::string out;
  json::Writer w(out, {.indent = 0, .escape_html = true});
  w.begin_object();
  for (const auto& [name, pkg] : index) {
    w.key(name);
    w.begin_object();
    w.key("name");
    w.string(pkg.name);
    w.key("description");
    w.string(pkg.description);
    icon_member(w, pkg.icon);
    w.key("defaultChannel");
    w.string(pkg.default_channel);
    w.key("Channels");
    w.begin_object();
    for (const auto& [ch_name, ch] : pkg.channels) {
      w.key(ch_name);
      channel_object(w, pkg, ch);
    }
    w.end_object();
    deprecation_member(w, pkg.deprecation);
    w.end_object();
  }
  w.end_object();
  return out;
}

std::string bundle_json(const IndexEntry& entry) {
  const api::Bundle b = entry.full();
  std::string out;
  json::Writer w(out, {.indent = 0, .escape_html = true});
  w.begin_object();
  string_member(w, "csvName", b.csvname());
  string_member(w, "packageName", b.packagename());
  string_member(w, "channelName", b.channelname());
  string_member(w, "csvJson", b.csvjson());
  strings_member(w, "object", b.object());
  string_member(w, "bundlePath", b.bundlepath());
  gvks_member(w, "providedApis", b.providedapis());
  gvks_member(w, "requiredApis", b.requiredapis());
  string_member(w, "version", b.version());
  string_member(w, "skipRange", b.skiprange());
  type_values_member(w, "dependencies", b.dependencies());
  type_values_member(w, "properties", b.properties());
  string_member(w, "replaces", entry.replaces);
  strings_member(w, "skips", entry.skips);
  if (b.has_deprecation()) {
    deprecation_member(w, b.deprecation().message());
  }
  w.end_object();
  return out;
}

Result<PackageIndex> parse_packages_json(std::string_view text) {
  auto doc = OPM_TRY(json::text::parse(text));
  if (!doc.is_object()) {
    return util::fail(Errc::invalid, "json: cannot unmarshal into cache.packageIndex");
  }
  PackageIndex index;
  for (const auto& [key, p] : doc.items()) {
    IndexPackage pkg;
    pkg.name = string_at(p, "name");
    pkg.description = string_at(p, "description");
    pkg.default_channel = string_at(p, "defaultChannel");
    pkg.deprecation = deprecation_at(p);
    if (auto icon = p.find("icon"); icon != p.end() && icon->is_object()) {
      IndexIcon out{std::nullopt, string_at(*icon, "mediatype")};
      if (auto data = icon->find("base64data"); data != icon->end() && data->is_string()) {
        out.data = OPM_TRY(util::base64_decode(data->get<std::string>()));
      }
      pkg.icon = std::move(out);
    }
    if (auto chans = p.find("Channels"); chans != p.end() && chans->is_object()) {
      for (const auto& [ch_name, c] : chans->items()) {
        pkg.channels.emplace(ch_name, OPM_TRY(parse_channel(c)));
      }
    }
    index.emplace(key, std::move(pkg));
  }
  return index;
}

} // namespace opm::serve
