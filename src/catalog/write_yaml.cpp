#include "catalog/go_format.hpp"
#include "catalog/natural_order.hpp"
#include "catalog/write.hpp"
#include "catalog/write_objects.hpp"
#include "util/go_format.hpp"
#include "util/utf8.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <forward_list>

namespace opm::catalog {

namespace {

struct Member {
  std::string_view key;
  const Json* value;
};

bool member_less(const Member& a, const Member& b) { return natural_less(a.key, b.key); }

// A plain merge sort: stays within bounds whatever the comparator answers.
void sort_members(std::vector<Member>& members) {
  if (std::is_sorted(members.begin(), members.end(), member_less)) {
    return;
  }
  std::vector<Member> buffer(members.size());
  for (std::size_t width = 1; width < members.size(); width *= 2) {
    for (std::size_t lo = 0; lo < members.size(); lo += 2 * width) {
      const std::size_t mid = std::min(lo + width, members.size());
      const std::size_t hi = std::min(lo + 2 * width, members.size());
      std::size_t a = lo;
      std::size_t b = mid;
      std::size_t k = lo;
      while (a < mid && b < hi) {
        buffer[k++] = member_less(members[b], members[a]) ? members[b++] : members[a++];
      }
      while (a < mid) {
        buffer[k++] = members[a++];
      }
      while (b < hi) {
        buffer[k++] = members[b++];
      }
    }
    members.swap(buffer);
  }
}

// The YAML text of a float64 after its trip through Go's JSON text and go-yaml's resolver:
// integral values that fit int64 or uint64 become integers, everything else a float.
void append_yaml_float(std::string& out, double v) {
  if (std::isnan(v)) {
    out += ".nan";
    return;
  }
  if (std::isinf(v)) {
    out += v < 0 ? "-.inf" : ".inf";
    return;
  }
  std::string json;
  util::append_json_float(json, v);
  if (json.find_first_of(".e") == std::string::npos) {
    const char* first = json.data();
    const char* last = json.data() + json.size();
    std::int64_t as_signed = 0;
    char buf[24];
    if (std::from_chars(first, last, as_signed).ec == std::errc()) {
      out.append(buf, std::to_chars(buf, buf + sizeof buf, as_signed).ptr);
      return;
    }
    std::uint64_t as_unsigned = 0;
    if (std::from_chars(first, last, as_unsigned).ec == std::errc()) {
      out.append(buf, std::to_chars(buf, buf + sizeof buf, as_unsigned).ptr);
      return;
    }
  }
  util::append_float_g(out, v);
}

template <typename T> void plain_number(YamlEmitter& e, T n) {
  char buf[24];
  const auto res = std::to_chars(buf, buf + sizeof buf, n);
  e.plain(std::string_view(buf, static_cast<std::size_t>(res.ptr - buf)));
}

void write_object(YamlEmitter& e, const Json::object_t& object) {
  if (object.empty()) {
    e.empty_mapping();
    return;
  }
  std::vector<Member> members;
  members.reserve(object.size());
  std::forward_list<std::string> sanitized; // allocates nothing while empty
  for (const auto& [key, value] : object) {
    if (util::utf8::valid(key)) {
      members.push_back({key, &value});
    } else {
      members.push_back({sanitized.emplace_front(util::utf8::sanitize(key)), &value});
    }
  }
  if (!sanitized.empty()) {
    // Keys that became equal: the later one (in Go's byte order) wins, as in a YAML mapping.
    std::vector<Member> unique;
    for (const Member& m : members) {
      auto same = std::find_if(unique.begin(), unique.end(),
                               [&](const Member& u) { return u.key == m.key; });
      if (same != unique.end()) {
        same->value = m.value;
      } else {
        unique.push_back(m);
      }
    }
    members.swap(unique);
  }
  sort_members(members);
  e.begin_mapping();
  for (const Member& m : members) {
    e.key(m.key);
    write_yaml(e, *m.value);
  }
  e.end_mapping();
}

void write_properties(YamlEmitter& e, const std::vector<Property>& properties) {
  e.key("properties");
  e.begin_sequence();
  for (const Property& property : properties) {
    e.item();
    e.begin_mapping();
    e.key("type");
    e.string(property.type);
    e.key("value");
    write_yaml(e, property.value);
    e.end_mapping();
  }
  e.end_sequence();
}

} // namespace

void write_yaml(YamlEmitter& e, const Json& v) {
  switch (v.type()) {
  case Json::value_t::object:
    write_object(e, v.get_ref<const Json::object_t&>());
    return;
  case Json::value_t::array:
    if (v.empty()) {
      e.empty_sequence();
      return;
    }
    e.begin_sequence();
    for (const Json& element : v) {
      e.item();
      write_yaml(e, element);
    }
    e.end_sequence();
    return;
  case Json::value_t::string:
    e.string(v.get_ref<const std::string&>());
    return;
  case Json::value_t::boolean:
    e.plain(v.get<bool>() ? "true" : "false");
    return;
  case Json::value_t::number_integer:
    plain_number(e, v.get<std::int64_t>());
    return;
  case Json::value_t::number_unsigned:
    plain_number(e, v.get<std::uint64_t>());
    return;
  case Json::value_t::number_float: {
    std::string text;
    append_yaml_float(text, v.get<double>());
    e.plain(text);
    return;
  }
  default:
    e.plain("null");
    return;
  }
}

void write_yaml(YamlEmitter& e, const Package& p) {
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
      append_base64(encoded, *p.icon->data);
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

void write_yaml(YamlEmitter& e, const Channel& c) {
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

void write_yaml(YamlEmitter& e, const Bundle& b) {
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

void write_yaml(YamlEmitter& e, const Deprecation& d) {
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

void write_yaml(YamlEmitter& e, const Meta& m) { write_yaml(e, m.blob); }

void append_yaml(std::string& out, const Json& v) {
  YamlEmitter e(out);
  e.begin_document();
  write_yaml(e, v);
  e.end_document();
}

} // namespace opm::catalog
