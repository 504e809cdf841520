#include "yaml/resolve.hpp"

#include "util/base64.hpp"
#include "util/go_format.hpp"
#include "util/go_parse.hpp"
#include "util/strings.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

namespace opm::yaml {

Json Scalar::to_json() && {
  switch (kind) {
  case Kind::null:
    return nullptr;
  case Kind::boolean:
    return boolean;
  case Kind::integer:
    json::count_decoded_integer();
    return integer;
  case Kind::unsigned_integer:
    json::count_decoded_integer();
    return unsigned_integer;
  case Kind::floating:
    return floating;
  case Kind::string:
    break;
  }
  return Json(std::move(text));
}

namespace {

constexpr std::string_view k_long_tag_prefix = "tag:yaml.org,2002:";

std::string short_tag(std::string_view tag) {
  if (tag.starts_with(k_long_tag_prefix)) {
    return "!!" + std::string(tag.substr(k_long_tag_prefix.size()));
  }
  return std::string(tag);
}

bool resolvable_tag(std::string_view tag) {
  return tag.empty() || tag == k_str_tag || tag == k_bool_tag || tag == k_int_tag ||
         tag == k_float_tag || tag == k_null_tag || tag == k_timestamp_tag;
}

// go-yaml's table of words with a fixed meaning (YAML 1.1 booleans, nulls, infinities).
enum class Word { none, yes, no, null, nan, pos_inf, neg_inf, merge };

Word lookup_word(std::string_view s) {
  switch (s.size()) {
  case 0:
    return Word::null;
  case 1:
    switch (s[0]) {
    case 'y':
    case 'Y':
      return Word::yes;
    case 'n':
    case 'N':
      return Word::no;
    case '~':
      return Word::null;
    default:
      return Word::none;
    }
  default:
    break;
  }
  static constexpr struct {
    std::string_view text;
    Word word;
  } k_words[] = {
      {"yes", Word::yes},       {"Yes", Word::yes},       {"YES", Word::yes},
      {"true", Word::yes},      {"True", Word::yes},      {"TRUE", Word::yes},
      {"on", Word::yes},        {"On", Word::yes},        {"ON", Word::yes},
      {"no", Word::no},         {"No", Word::no},         {"NO", Word::no},
      {"false", Word::no},      {"False", Word::no},      {"FALSE", Word::no},
      {"off", Word::no},        {"Off", Word::no},        {"OFF", Word::no},
      {"null", Word::null},     {"Null", Word::null},     {"NULL", Word::null},
      {".nan", Word::nan},      {".NaN", Word::nan},      {".NAN", Word::nan},
      {".inf", Word::pos_inf},  {".Inf", Word::pos_inf},  {".INF", Word::pos_inf},
      {"+.inf", Word::pos_inf}, {"+.Inf", Word::pos_inf}, {"+.INF", Word::pos_inf},
      {"-.inf", Word::neg_inf}, {"-.Inf", Word::neg_inf}, {"-.INF", Word::neg_inf},
      {"<<", Word::merge},
  };
  if (s.size() > 5) {
    return Word::none;
  }
  // Which words start with each byte, as a bit per word (the table has fewer than 64): most
  // keys and values start with a byte no word starts with, or match one or two words' sizes.
  static constexpr auto k_by_first_byte = [] {
    std::array<std::uint64_t, 256> bits{};
    for (std::size_t i = 0; i < std::size(k_words); ++i) {
      bits[static_cast<unsigned char>(k_words[i].text[0])] |= std::uint64_t{1} << i;
    }
    return bits;
  }();
  static_assert(std::size(k_words) < 64);
  for (std::uint64_t candidates = k_by_first_byte[static_cast<unsigned char>(s[0])];
       candidates != 0; candidates &= candidates - 1) {
    const auto& w = k_words[static_cast<std::size_t>(__builtin_ctzll(candidates))];
    if (w.text == s) {
      return w.word;
    }
  }
  return Word::none;
}

// The first-character hint of go-yaml's resolve(): 'S' sign, 'D' digit, 'M' possibly a
// word, '.' possibly a float, 0 for anything that can only be a string.
char hint_of(std::string_view s) {
  if (s.empty()) {
    return 'N';
  }
  char c = s[0];
  if (c == '+' || c == '-') {
    return 'S';
  }
  if (util::is_ascii_digit(c)) {
    return 'D';
  }
  switch (c) {
  case 'y':
  case 'Y':
  case 'n':
  case 'N':
  case 't':
  case 'T':
  case 'f':
  case 'F':
  case 'o':
  case 'O':
  case '~':
    return 'M';
  case '.':
    return '.';
  default:
    return 0;
  }
}

// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool matches_yaml_float(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&] {
    std::size_t start = i;
    while (i < s.size() && util::is_ascii_digit(s[i])) {
      ++i;
    }
    return i - start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    ++i;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) {
      return false;
    }
  } else {
    if (digits() == 0) {
      return false;
    }
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
      ++i;
    }
    if (digits() == 0) {
      return false;
    }
  }
  return i == s.size();
}

// Go's timestamp layouts accepted by go-yaml: 2006-1-2T15:4:5.999999999Z07:00 (T or t),
// "2006-1-2 15:4:5.999999999" and 2006-1-2. Only consulted for explicit !!timestamp tags:
// untagged timestamps stay strings either way.
bool parse_timestamp(std::string_view s) {
  std::size_t i = 0;
  auto number = [&](std::size_t min_digits, std::size_t max_digits, int& value) {
    std::size_t start = i;
    value = 0;
    while (i < s.size() && util::is_ascii_digit(s[i]) && i - start < max_digits) {
      value = value * 10 + (s[i] - '0');
      ++i;
    }
    return i - start >= min_digits;
  };
  int year = 0;
  int month = 0;
  int day = 0;
  if (!number(4, 4, year) || i >= s.size() || s[i] != '-') {
    return false;
  }
  ++i;
  if (!number(1, 2, month) || month < 1 || month > 12 || i >= s.size() || s[i] != '-') {
    return false;
  }
  ++i;
  if (!number(1, 2, day) || day < 1) {
    return false;
  }
  static constexpr int k_days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day > k_days[month - 1] || (month == 2 && day == 29 && !leap)) {
    return false;
  }
  if (i == s.size()) {
    return true;
  }
  bool spaced = s[i] == ' ';
  if (s[i] != 'T' && s[i] != 't' && !spaced) {
    return false;
  }
  ++i;
  int hour = 0;
  int minute = 0;
  int second = 0;
  if (!number(1, 2, hour) || hour > 23 || i >= s.size() || s[i] != ':') {
    return false;
  }
  ++i;
  if (!number(1, 2, minute) || minute > 59 || i >= s.size() || s[i] != ':') {
    return false;
  }
  ++i;
  if (!number(1, 2, second) || second > 59) {
    return false;
  }
  if (i + 1 < s.size() && (s[i] == '.' || s[i] == ',') && util::is_ascii_digit(s[i + 1])) {
    ++i;
    while (i < s.size() && util::is_ascii_digit(s[i])) {
      ++i;
    }
  }
  if (spaced) {
    return i == s.size();
  }
  if (i < s.size() && s[i] == 'Z') {
    return i + 1 == s.size();
  }
  // +hh:mm or -hh:mm
  if (s.size() - i != 6 || (s[i] != '+' && s[i] != '-') || s[i + 3] != ':') {
    return false;
  }
  return util::is_ascii_digit(s[i + 1]) && util::is_ascii_digit(s[i + 2]) &&
         util::is_ascii_digit(s[i + 4]) && util::is_ascii_digit(s[i + 5]);
}

enum class Resolved {
  null,
  boolean,
  integer,
  unsigned_integer,
  floating,
  string,
  timestamp,
  binary
};

struct Resolution {
  Resolved kind = Resolved::string;
  std::string_view tag; // the long tag of what was found
};

std::string_view tag_of(Resolved kind) {
  switch (kind) {
  case Resolved::null:
    return k_null_tag;
  case Resolved::boolean:
    return k_bool_tag;
  case Resolved::integer:
  case Resolved::unsigned_integer:
    return k_int_tag;
  case Resolved::floating:
    return k_float_tag;
  case Resolved::timestamp:
    return k_timestamp_tag;
  case Resolved::binary:
    return k_binary_tag;
  case Resolved::string:
    break;
  }
  return k_str_tag;
}

// go-yaml v2's resolve() for a resolvable tag: what the text is, with the value in `out`.
Resolved resolve_text(std::string_view tag, std::string_view in, Scalar& out) {
  char hint = hint_of(in);
  if (hint == 0 || tag == k_str_tag || tag == k_binary_tag) {
    return Resolved::string;
  }
  switch (lookup_word(in)) {
  case Word::yes:
    out.boolean = true;
    return Resolved::boolean;
  case Word::no:
    out.boolean = false;
    return Resolved::boolean;
  case Word::null:
    return Resolved::null;
  case Word::nan:
    out.floating = std::numeric_limits<double>::quiet_NaN();
    return Resolved::floating;
  case Word::pos_inf:
    out.floating = std::numeric_limits<double>::infinity();
    return Resolved::floating;
  case Word::neg_inf:
    out.floating = -std::numeric_limits<double>::infinity();
    return Resolved::floating;
  case Word::merge:
    // "<<" resolves to the merge tag; as a value it decodes as the string "<<".
    return Resolved::string;
  case Word::none:
    break;
  }
  if (hint == '.') {
    if (auto f = util::parse_go_decimal_float(in)) {
      out.floating = *f;
      return Resolved::floating;
    }
    return Resolved::string;
  }
  if (hint != 'D' && hint != 'S') {
    return Resolved::string;
  }
  if (tag == k_timestamp_tag && parse_timestamp(in)) {
    return Resolved::timestamp;
  }
  std::string stripped;
  std::string_view plain = in;
  if (in.find('_') != std::string_view::npos) {
    stripped = util::strip_underscores(in);
    plain = stripped;
  }
  if (auto i = util::parse_go_int(plain)) {
    out.integer = *i;
    return Resolved::integer;
  }
  if (auto u = util::parse_go_uint(plain)) {
    out.unsigned_integer = *u;
    return Resolved::unsigned_integer;
  }
  if (matches_yaml_float(plain)) {
    if (auto f = util::parse_go_decimal_float(plain)) {
      out.floating = *f;
      return Resolved::floating;
    }
  }
  if (plain.starts_with("0b")) {
    if (auto i = util::parse_go_int(plain.substr(2), 2)) {
      out.integer = *i;
      return Resolved::integer;
    }
    if (auto u = util::parse_go_uint(plain.substr(2), 2)) {
      out.unsigned_integer = *u;
      return Resolved::unsigned_integer;
    }
  } else if (plain.starts_with("-0b")) {
    if (auto i = util::parse_go_int("-" + std::string(plain.substr(3)), 2)) {
      out.integer = *i;
      return Resolved::integer;
    }
  }
  return Resolved::string;
}

} // namespace

void coerce_utf8(std::string& s) {
  std::size_t i = 0;
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) {
    ++i;
  }
  if (i == s.size()) {
    return;
  }
  std::string out(s, 0, i);
  out.reserve(s.size() + 8);
  while (i < s.size()) {
    std::size_t start = i;
    bool valid = true;
    char32_t cp = util::decode_utf8(s, i, &valid);
    if (valid) {
      out.append(s, start, i - start);
    } else {
      util::append_utf8(out, cp);
    }
  }
  s = std::move(out);
}

std::optional<std::string> resolve_scalar(std::string_view tag, std::string&& text,
                                          bool plain_implicit, Scalar& out) {
  using Kind = Scalar::Kind;
  if (tag.empty() && !plain_implicit) {
    out.kind = Kind::string;
    out.text = std::move(text);
    return std::nullopt;
  }
  if (!resolvable_tag(tag)) {
    // Custom tags, "!", !!map, !!seq, !!merge keep the text; !!binary decodes it.
    if (tag == k_binary_tag) {
      auto bytes = util::base64_decode(text);
      if (!bytes) {
        return std::string("!!binary value contains invalid base64 data");
      }
      coerce_utf8(*bytes);
      out.kind = Kind::string;
      out.text = std::move(*bytes);
      return std::nullopt;
    }
    out.kind = Kind::string;
    out.text = std::move(text);
    return std::nullopt;
  }
  Resolved found = resolve_text(tag, text, out);
  if (!tag.empty() && tag != tag_of(found)) {
    if (tag == k_float_tag && found == Resolved::integer) {
      out.floating = static_cast<double>(out.integer);
      found = Resolved::floating;
    } else {
      return "cannot decode " + short_tag(tag_of(found)) + " `" + text + "` as a " + short_tag(tag);
    }
  }
  switch (found) {
  case Resolved::null:
    out.kind = Kind::null;
    break;
  case Resolved::boolean:
    out.kind = Kind::boolean;
    break;
  case Resolved::integer:
    out.kind = Kind::integer;
    break;
  case Resolved::unsigned_integer:
    out.kind = Kind::unsigned_integer;
    break;
  case Resolved::floating:
    out.kind = Kind::floating;
    break;
  case Resolved::string:
  case Resolved::timestamp: // kept as the text when decoding into interface{}
  case Resolved::binary:
    out.kind = Kind::string;
    out.text = std::move(text);
    break;
  }
  return std::nullopt;
}

bool resolves_to_string(std::string_view plain) {
  // Most keys and values start with a byte that only a string starts with, or are no word.
  switch (hint_of(plain)) {
  case 0:
    return true;
  case 'M': {
    const Word word = lookup_word(plain);
    return word == Word::none || word == Word::merge;
  }
  default: {
    Scalar ignored;
    return resolve_text("", plain, ignored) == Resolved::string;
  }
  }
}

bool is_merge_key(std::string_view tag, std::string_view text, bool plain_implicit) {
  return text == "<<" && (plain_implicit || tag == k_merge_tag);
}

std::optional<std::string> key_string(Scalar&& key) {
  using Kind = Scalar::Kind;
  switch (key.kind) {
  case Kind::string:
    return std::move(key.text);
  case Kind::integer:
    return std::to_string(key.integer);
  case Kind::boolean:
    return std::string(key.boolean ? "true" : "false");
  case Kind::floating: {
    std::string s = util::format_float(key.floating, 'g', 32);
    if (s == "+Inf") {
      return std::string(".inf");
    }
    if (s == "-Inf") {
      return std::string("-.inf");
    }
    if (s == "NaN") {
      return std::string(".nan");
    }
    return s;
  }
  case Kind::null:
  case Kind::unsigned_integer:
    break;
  }
  return std::nullopt;
}

std::optional<std::string> key_string(const Json& key) {
  Scalar s;
  switch (key.type()) {
  case Json::value_t::string:
    return key.get<std::string>();
  case Json::value_t::number_integer:
    s.kind = Scalar::Kind::integer;
    s.integer = key.get<std::int64_t>();
    break;
  case Json::value_t::number_float:
    s.kind = Scalar::Kind::floating;
    s.floating = key.get<double>();
    break;
  case Json::value_t::boolean:
    s.kind = Scalar::Kind::boolean;
    s.boolean = key.get<bool>();
    break;
  default:
    return std::nullopt;
  }
  return key_string(std::move(s));
}

} // namespace opm::yaml
