#include "catalog/write.hpp"
#include "catalog/write_objects.hpp"
#include "util/base64.hpp"
#include "util/go_format.hpp"
#include "util/utf8.hpp"
#include "yaml/value.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <forward_list>

namespace opm::catalog {

namespace {

void write_properties(yaml::Emitter& e, const std::vector<Property>& properties) {
  e.key("properties");
  e.begin_sequence();
  for (const Property& property : properties) {
    e.item();
    e.begin_mapping();
    e.key("type");
    e.string(property.type);
    e.key("value");
    yaml::write_value(e, property.value);
    e.end_mapping();
  }
  e.end_sequence();
}

} // namespace

void write_yaml(yaml::Emitter& e, const Package& p) {
  e.begin_mapping();
  e.key("defaultChannel");
  e.string(p.default_channel);
  if (!p.description.empty()) {
    e.key("description");
    e.string(p.description);
  }
  if (p.icon) {
    e.key("icon");
    e.begin_mapping();
    e.key("base64data");
    if (p.icon->data) {
      std::string encoded;
      util::base64_encode_append(encoded, *p.icon->data);
      e.string(encoded);
    } else {
      e.plain("null");
    }
    e.key("mediatype");
    e.string(p.icon->mediatype);
    e.end_mapping();
  }
  e.key("name");
  e.string(p.name);
  if (!p.properties.empty()) {
    write_properties(e, p.properties);
  }
  e.key("schema");
  e.string(k_schema_package);
  e.end_mapping();
}

void write_yaml(yaml::Emitter& e, const Channel& c) {
  e.begin_mapping();
  e.key("entries");
  if (!c.entries) {
    e.plain("null");
  } else if (c.entries->empty()) {
    e.empty_sequence();
  } else {
    e.begin_sequence();
    for (const ChannelEntry& entry : *c.entries) {
      e.item();
      e.begin_mapping();
      e.key("name");
      e.string(entry.name);
      if (!entry.replaces.empty()) {
        e.key("replaces");
        e.string(entry.replaces);
      }
      if (!entry.skip_range.empty()) {
        e.key("skipRange");
        e.string(entry.skip_range);
      }
      if (!entry.skips.empty()) {
        e.key("skips");
        e.begin_sequence();
        for (const std::string& skip : entry.skips) {
          e.item();
          e.string(skip);
        }
        e.end_sequence();
      }
      e.end_mapping();
    }
    e.end_sequence();
  }
  e.key("name");
  e.string(c.name);
  e.key("package");
  e.string(c.package);
  if (!c.properties.empty()) {
    write_properties(e, c.properties);
  }
  e.key("schema");
  e.string(k_schema_channel);
  e.end_mapping();
}

void write_yaml(yaml::Emitter& e, const Bundle& b) {
  e.begin_mapping();
  e.key("image");
  e.string(b.image);
  if (!b.name.empty()) {
    e.key("name");
    e.string(b.name);
  }
  if (!b.package.empty()) {
    e.key("package");
    e.string(b.package);
  }
  if (!b.properties.empty()) {
    write_properties(e, b.properties);
  }
  if (!b.related_images.empty()) {
    e.key("relatedImages");
    e.begin_sequence();
    for (const RelatedImage& related : b.related_images) {
      e.item();
      e.begin_mapping();
      e.key("image");
      e.string(related.image);
      e.key("name");
      e.string(related.name);
      e.end_mapping();
    }
    e.end_sequence();
  }
  e.key("schema");
  e.string(k_schema_bundle);
  e.end_mapping();
}

void write_yaml(yaml::Emitter& e, const Deprecation& d) {
  e.begin_mapping();
  e.key("entries");
  if (!d.entries) {
    e.plain("null");
  } else if (d.entries->empty()) {
    e.empty_sequence();
  } else {
    e.begin_sequence();
    for (const DeprecationEntry& entry : *d.entries) {
      e.item();
      e.begin_mapping();
      e.key("message");
      e.string(entry.message);
      e.key("reference");
      e.begin_mapping();
      if (!entry.reference.name.empty()) {
        e.key("name");
        e.string(entry.reference.name);
      }
      e.key("schema");
      e.string(entry.reference.schema);
      e.end_mapping();
      e.end_mapping();
    }
    e.end_sequence();
  }
  e.key("package");
  e.string(d.package);
  e.key("schema");
  e.string(k_schema_deprecations);
  e.end_mapping();
}

void write_yaml(yaml::Emitter& e, const Meta& m) { yaml::write_value(e, m.blob); }

} // namespace opm::catalog
