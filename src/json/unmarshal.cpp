#include "json/unmarshal.hpp"

#include "util/base64.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace opm::json {

const Type k_string = Type::scalar(Kind::string, "string");
const Type k_bool = Type::scalar(Kind::boolean, "bool");
const Type k_raw = Type::scalar(Kind::raw, "json.RawMessage");

namespace {

const Type k_uint8 = Type::scalar(Kind::uint8, "uint8");

enum class B64 : std::uint8_t { invalid, data, newline, pad };

constexpr std::array<B64, 256> k_base64_classes = [] {
  std::array<B64, 256> classes{};
  for (int c = 'A'; c <= 'Z'; ++c) {
    classes[static_cast<std::size_t>(c)] = B64::data;
  }
  for (int c = 'a'; c <= 'z'; ++c) {
    classes[static_cast<std::size_t>(c)] = B64::data;
  }
  for (int c = '0'; c <= '9'; ++c) {
    classes[static_cast<std::size_t>(c)] = B64::data;
  }
  classes['+'] = B64::data;
  classes['/'] = B64::data;
  classes['\n'] = B64::newline;
  classes['\r'] = B64::newline;
  classes['='] = B64::pad;
  return classes;
}();

B64 base64_class(char c) { return k_base64_classes[static_cast<unsigned char>(c)]; }

// Where Go's base64.StdEncoding.Decode would stop with CorruptInputError, if anywhere.
// Line breaks are skipped; padding must complete the last group and end the input.
std::optional<std::size_t> base64_error(std::string_view s) {
  const std::size_t n = s.size();
  std::size_t quantum = 0; // characters of the current group of four
  std::size_t si = 0;
  while (si < n) {
    std::size_t run = si;
    si = util::base64_alphabet_run_end(s, si);
    quantum = (quantum + (si - run)) % 4;
    if (si == n) {
      break;
    }
    B64 kind = base64_class(s[si]);
    if (kind == B64::newline) {
      ++si;
      continue;
    }
    if (kind != B64::pad || quantum < 2) {
      return si;
    }
    ++si;
    auto skip_newlines = [&] {
      while (si < n && base64_class(s[si]) == B64::newline) {
        ++si;
      }
    };
    if (quantum == 2) {
      skip_newlines();
      if (si == n) {
        return n;
      }
      if (s[si] != '=') {
        return si - 1;
      }
      ++si;
    }
    skip_newlines();
    if (si < n) {
      return si;
    }
    return std::nullopt;
  }
  if (quantum != 0) {
    return n - quantum;
  }
  return std::nullopt;
}

struct Walker {
  std::string_view struct_name;
  std::vector<std::string_view> path;
  std::optional<std::string> error;

  bool type_error(std::string_view what, const Type& type) {
    std::string joined;
    for (std::size_t i = 0; i < path.size(); ++i) {
      if (i > 0) {
        joined += '.';
      }
      joined += path[i];
    }
    error = json::type_error(what, struct_name, joined, type.name);
    return false;
  }

  bool integer(const Json& v, const Type& type, std::int64_t min, std::int64_t max) {
    bool fits = false;
    if (v.is_number_integer() && !v.is_number_unsigned()) {
      auto n = v.get<std::int64_t>();
      fits = n >= min && n <= max;
    } else if (v.is_number_unsigned()) {
      fits = v.get<std::uint64_t>() <= static_cast<std::uint64_t>(max);
    } else {
      // A float64 prints without a fraction only when it is integral (and below 1e21).
      double d = v.get<double>();
      fits = std::trunc(d) == d && std::fabs(d) < 1e21 && d >= static_cast<double>(min) &&
             d <= static_cast<double>(max) && !(d == 0 && std::signbit(d) && min == 0);
    }
    if (fits) {
      return true;
    }
    return type_error("number " + format_number(v), type);
  }

  bool walk(const Json& v, const Type& type) {
    if (v.is_null() || type.kind == Kind::raw) {
      return true;
    }
    switch (v.type()) {
    case Json::value_t::string:
      if (type.kind == Kind::string) {
        return true;
      }
      if (type.kind == Kind::bytes) {
        if (auto at = base64_error(v.get_ref<const std::string&>())) {
          error = fmt::format("illegal base64 data at input byte {}", *at);
          return false;
        }
        return true;
      }
      return type_error("string", type);
    case Json::value_t::boolean:
      return type.kind == Kind::boolean || type_error("bool", type);
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      if (type.kind == Kind::int32) {
        return integer(v, type, std::numeric_limits<std::int32_t>::min(),
                       std::numeric_limits<std::int32_t>::max());
      }
      if (type.kind == Kind::uint8) {
        return integer(v, type, 0, std::numeric_limits<std::uint8_t>::max());
      }
      return type_error("number", type);
    case Json::value_t::array:
      if (type.kind != Kind::slice && type.kind != Kind::bytes) {
        return type_error("array", type);
      }
      for (const auto& item : v.get_ref<const Json::array_t&>()) {
        if (!walk(item, type.kind == Kind::bytes ? k_uint8 : *type.elem)) {
          return false;
        }
      }
      return true;
    case Json::value_t::object:
      if (type.kind == Kind::map) {
        for (const auto& [key, item] : v.get_ref<const Json::object_t&>()) {
          if (!walk(item, *type.elem)) {
            return false;
          }
        }
        return true;
      }
      if (type.kind != Kind::structure) {
        return type_error("object", type);
      }
      return walk_struct(v, type);
    default:
      return true;
    }
  }

  // Go's decoder takes the field of exactly that name, else the first whose name matches
  // ignoring case.
  static const Field* field_of(const Type& type, std::string_view key) {
    for (const auto& f : type.fields) {
      if (key == f.json) {
        return &f;
      }
    }
    for (const auto& f : type.fields) {
      if (key_matches(key, f.json)) {
        return &f;
      }
    }
    return nullptr;
  }

  bool walk_struct(const Json& v, const Type& type) {
    for (const auto& [key, value] : v.get_ref<const Json::object_t&>()) {
      const Field* field = field_of(type, key);
      if (field == nullptr) {
        continue;
      }
      std::string_view outer = struct_name;
      path.push_back(field->json);
      struct_name = type.short_name;
      bool ok = walk(value, *field->type);
      path.pop_back();
      struct_name = outer;
      if (!ok) {
        return false;
      }
    }
    return true;
  }
};

} // namespace

bool key_matches(std::string_view key, std::string_view field) {
  if (key == field) {
    return true;
  }
  std::size_t i = 0;
  for (char want : field) {
    if (i >= key.size()) {
      return false;
    }
    char lower_want = (want >= 'A' && want <= 'Z') ? static_cast<char>(want - 'A' + 'a') : want;
    auto c = static_cast<unsigned char>(key[i]);
    if (c < 0x80) {
      char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : static_cast<char>(c);
      if (lower != lower_want) {
        return false;
      }
      ++i;
      continue;
    }
    char32_t cp = util::decode_utf8(key, i);
    if (!((cp == 0x212A && lower_want == 'k') || (cp == 0x17F && lower_want == 's'))) {
      return false;
    }
  }
  return i == key.size();
}

const Json* find_member(const Json& object, std::string_view field) {
  if (!object.is_object()) {
    return nullptr;
  }
  const Json* found = nullptr;
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (key_matches(it.key(), field)) {
      found = &it.value();
    }
  }
  return found;
}

std::string format_number(const Json& number) {
  if (number.is_number_unsigned()) {
    return std::to_string(number.get<std::uint64_t>());
  }
  if (number.is_number_integer()) {
    return std::to_string(number.get<std::int64_t>());
  }
  double d = number.get<double>();
  double magnitude = std::fabs(d);
  bool exponent = magnitude != 0 && (magnitude < 1e-6 || magnitude >= 1e21);
  std::array<char, 64> buf{};
  auto [end, ec] =
      std::to_chars(buf.data(), buf.data() + buf.size(), d,
                    exponent ? std::chars_format::scientific : std::chars_format::fixed);
  std::string out(buf.data(), ec == std::errc() ? end : buf.data());
  // Go writes e-07 as e-7.
  std::size_t n = out.size();
  if (exponent && n >= 4 && out[n - 4] == 'e' && out[n - 3] == '-' && out[n - 2] == '0') {
    out.erase(n - 2, 1);
  }
  return out;
}

std::optional<std::string> check(const Json& value, const Type& type) {
  if (value.is_discarded()) {
    return std::string("unexpected end of JSON input");
  }
  Walker walker;
  walker.walk(value, type);
  return std::move(walker.error);
}

std::string_view kind_name(const Json& value) {
  switch (value.type()) {
  case Json::value_t::string:
    return "string";
  case Json::value_t::boolean:
    return "bool";
  case Json::value_t::array:
    return "array";
  case Json::value_t::object:
    return "object";
  case Json::value_t::null:
    return "null";
  default:
    return "number";
  }
}

std::string type_error(std::string_view what, std::string_view strct, std::string_view path,
                       std::string_view go_type) {
  if (strct.empty() && path.empty()) {
    return fmt::format("json: cannot unmarshal {} into Go value of type {}", what, go_type);
  }
  return fmt::format("json: cannot unmarshal {} into Go struct field {}.{} of type {}", what, strct,
                     path, go_type);
}

} // namespace opm::json
