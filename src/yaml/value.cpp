#include "yaml/value.hpp"

#include "util/go_format.hpp"
#include "util/utf8.hpp"
#include "yaml/natural_order.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <forward_list>
#include <vector>

namespace opm::yaml {

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

template <typename T> void plain_number(Emitter& e, T n) {
  char buf[24];
  const auto res = std::to_chars(buf, buf + sizeof buf, n);
  e.plain(std::string_view(buf, static_cast<std::size_t>(res.ptr - buf)));
}

void write_object(Emitter& e, const Json::object_t& object) {
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
    write_value(e, *m.value);
  }
  e.end_mapping();
}

} // namespace

void write_value(Emitter& e, const Json& v) {
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
      write_value(e, element);
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

void append(std::string& out, const Json& v) {
  Emitter e(out);
  e.begin_document();
  write_value(e, v);
  e.end_document();
}

} // namespace opm::yaml
