#include "catalog/write.hpp"
#include "catalog/write_objects.hpp"

namespace opm::catalog {

namespace {

void write_properties(JsonWriter& w, const std::vector<Property>& properties) {
  w.key("properties");
  w.begin_array();
  for (const Property& property : properties) {
    w.begin_object();
    w.key("type");
    w.string(property.type);
    w.key("value");
    if (property.raw.empty()) {
      w.value(property.value);
    } else {
      w.raw(property.raw);
    }
    w.end_object();
  }
  w.end_array();
}

void write_base64(JsonWriter& w, std::string_view data) {
  std::string encoded;
  append_base64(encoded, data);
  w.string(encoded);
}

} // namespace

void append_base64(std::string& out, std::string_view data) {
  static constexpr char k_alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const std::size_t n = data.size();
  out.reserve(out.size() + (n + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const unsigned v = (p[i] << 16U) | (p[i + 1] << 8U) | p[i + 2];
    out.push_back(k_alphabet[(v >> 18) & 63]);
    out.push_back(k_alphabet[(v >> 12) & 63]);
    out.push_back(k_alphabet[(v >> 6) & 63]);
    out.push_back(k_alphabet[v & 63]);
  }
  if (i < n) {
    const unsigned v = (p[i] << 16U) | (i + 1 < n ? p[i + 1] << 8U : 0U);
    out.push_back(k_alphabet[(v >> 18) & 63]);
    out.push_back(k_alphabet[(v >> 12) & 63]);
    out.push_back(i + 1 < n ? k_alphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
}

void write_json(JsonWriter& w, const Package& p) {
  w.begin_object();
  w.key("schema");
  w.string(k_schema_package);
  w.key("name");
  w.string(p.name);
  w.key("defaultChannel");
  w.string(p.default_channel);
  if (p.icon) {
    w.key("icon");
    w.begin_object();
    w.key("base64data");
    if (p.icon->data) {
      write_base64(w, *p.icon->data);
    } else {
      w.literal("null");
    }
    w.key("mediatype");
    w.string(p.icon->mediatype);
    w.end_object();
  }
  if (!p.description.empty()) {
    w.key("description");
    w.string(p.description);
  }
  if (!p.properties.empty()) {
    write_properties(w, p.properties);
  }
  w.end_object();
}

void write_json(JsonWriter& w, const Channel& c) {
  w.begin_object();
  w.key("schema");
  w.string(k_schema_channel);
  w.key("name");
  w.string(c.name);
  w.key("package");
  w.string(c.package);
  w.key("entries");
  if (!c.entries) {
    w.literal("null");
  } else {
    w.begin_array();
    for (const ChannelEntry& entry : *c.entries) {
      w.begin_object();
      w.key("name");
      w.string(entry.name);
      if (!entry.replaces.empty()) {
        w.key("replaces");
        w.string(entry.replaces);
      }
      if (!entry.skips.empty()) {
        w.key("skips");
        w.begin_array();
        for (const std::string& skip : entry.skips) {
          w.string(skip);
        }
        w.end_array();
      }
      if (!entry.skip_range.empty()) {
        w.key("skipRange");
        w.string(entry.skip_range);
      }
      w.end_object();
    }
    w.end_array();
  }
  if (!c.properties.empty()) {
    write_properties(w, c.properties);
  }
  w.end_object();
}

void write_json(JsonWriter& w, const Bundle& b) {
  w.begin_object();
  w.key("schema");
  w.string(k_schema_bundle);
  if (!b.name.empty()) {
    w.key("name");
    w.string(b.name);
  }
  if (!b.package.empty()) {
    w.key("package");
    w.string(b.package);
  }
  w.key("image");
  w.string(b.image);
  if (!b.properties.empty()) {
    write_properties(w, b.properties);
  }
  if (!b.related_images.empty()) {
    w.key("relatedImages");
    w.begin_array();
    for (const RelatedImage& related : b.related_images) {
      w.begin_object();
      w.key("name");
      w.string(related.name);
      w.key("image");
      w.string(related.image);
      w.end_object();
    }
    w.end_array();
  }
  w.end_object();
}

void write_json(JsonWriter& w, const Deprecation& d) {
  w.begin_object();
  w.key("schema");
  w.string(k_schema_deprecations);
  w.key("package");
  w.string(d.package);
  w.key("entries");
  if (!d.entries) {
    w.literal("null");
  } else {
    w.begin_array();
    for (const DeprecationEntry& entry : *d.entries) {
      w.begin_object();
      w.key("reference");
      w.begin_object();
      w.key("schema");
      w.string(entry.reference.schema);
      if (!entry.reference.name.empty()) {
        w.key("name");
        w.string(entry.reference.name);
      }
      w.end_object();
      w.key("message");
      w.string(entry.message);
      w.end_object();
    }
    w.end_array();
  }
  w.end_object();
}

void write_json(JsonWriter& w, const Meta& m) { w.value(m.blob); }

void append_json(std::string& out, const Json& v, JsonStyle style) {
  JsonWriter w(out, style);
  w.value(v);
}

std::string to_json(const Json& v, JsonStyle style) {
  std::string out;
  append_json(out, v, style);
  return out;
}

} // namespace opm::catalog
