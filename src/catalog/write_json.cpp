#include "catalog/write.hpp"
#include "catalog/write_objects.hpp"
#include "json/writer.hpp"
#include "util/base64.hpp"

namespace opm::catalog {

namespace {

void write_properties(json::Writer& w, const std::vector<Property>& properties) {
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

void write_base64(json::Writer& w, std::string_view data) {
  std::string encoded;
  util::base64_encode_append(encoded, data);
  w.string(encoded);
}

} // namespace

void write_json(json::Writer& w, const Package& p) {
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

void write_json(json::Writer& w, const Channel& c) {
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

void write_json(json::Writer& w, const Bundle& b) {
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

void write_json(json::Writer& w, const Deprecation& d) {
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

void write_json(json::Writer& w, const Meta& m) { w.value(m.blob); }

} // namespace opm::catalog
