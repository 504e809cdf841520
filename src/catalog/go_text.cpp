#include "catalog/go_text.hpp"

#include "util/strings.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace opm::catalog::gotext {

namespace {

// The shortest decimal digits of |v| and the position of the decimal point: |v| = 0.d1d2... *
// 10^dp.
struct Digits {
  std::string digits;
  int dp = 0;
};

Digits shortest_digits(double v, int bits) {
  char buf[64];
  std::to_chars_result r{};
  if (bits == 32) {
    r = std::to_chars(buf, buf + sizeof buf, std::fabs(static_cast<float>(v)),
                      std::chars_format::scientific);
  } else {
    r = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  }
  std::string_view text(buf, static_cast<std::size_t>(r.ptr - buf));
  Digits d;
  auto e = text.find('e');
  for (char c : text.substr(0, e)) {
    if (c != '.') {
      d.digits += c;
    }
  }
  int exponent = 0;
  auto exp_text = text.substr(e + 1);
  if (!exp_text.empty() && exp_text.front() == '+') {
    exp_text.remove_prefix(1);
  }
  std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
  d.dp = exponent + 1;
  return d;
}

void append_e(std::string& out, const Digits& d) {
  out += d.digits[0];
  if (d.digits.size() > 1) {
    out += '.';
    out.append(d.digits, 1);
  }
  int exponent = d.dp - 1;
  out += 'e';
  out += exponent < 0 ? '-' : '+';
  exponent = std::abs(exponent);
  if (exponent < 10) {
    out += '0';
  }
  out += std::to_string(exponent);
}

void append_f(std::string& out, const Digits& d) {
  auto nd = static_cast<int>(d.digits.size());
  if (d.dp > 0) {
    for (int i = 0; i < d.dp; ++i) {
      out += i < nd ? d.digits[static_cast<std::size_t>(i)] : '0';
    }
  } else {
    out += '0';
  }
  if (nd > d.dp) {
    out += '.';
    for (int i = d.dp; i < nd; ++i) {
      out += i < 0 ? '0' : d.digits[static_cast<std::size_t>(i)];
    }
  }
}

} // namespace

std::string format_float(double v, char format, int bits) {
  if (bits == 32) {
    v = static_cast<double>(static_cast<float>(v));
  }
  if (std::isnan(v)) {
    return "NaN";
  }
  if (std::isinf(v)) {
    return v > 0 ? "+Inf" : "-Inf";
  }
  std::string out;
  if (std::signbit(v)) {
    out += '-';
  }
  if (v == 0) {
    out += format == 'e' ? "0e+00" : "0";
    return out;
  }
  Digits d = shortest_digits(v, bits);
  if (format == 'g') {
    int exponent = d.dp - 1;
    format = (exponent < -4 || exponent >= 6) ? 'e' : 'f';
  }
  if (format == 'e') {
    append_e(out, d);
  } else {
    append_f(out, d);
  }
  return out;
}

std::string quote_char(unsigned char c) {
  if (c == '\'') {
    return R"('\'')";
  }
  if (c == '"') {
    return R"('"')";
  }
  // Go converts the byte to the rune U+00XX, then quotes it.
  std::string rune;
  util::append_utf8(rune, c);
  std::string quoted = util::go_quote(rune);
  return "'" + quoted.substr(1, quoted.size() - 2) + "'";
}

namespace {

void append_go_syntax_scalar(std::string& out, const Json& v, bool in_container) {
  switch (v.type()) {
  case Json::value_t::null:
    out += in_container ? "interface {}(nil)" : "<nil>";
    break;
  case Json::value_t::boolean:
    out += v.get<bool>() ? "true" : "false";
    break;
  case Json::value_t::number_integer:
    out += std::to_string(v.get<std::int64_t>());
    break;
  case Json::value_t::number_unsigned: {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v.get<std::uint64_t>(), 16);
    out += "0x";
    out.append(buf, r.ptr);
    break;
  }
  case Json::value_t::number_float:
    out += format_float(v.get<double>(), 'g', 64);
    break;
  case Json::value_t::string:
    out += util::go_quote(v.get_ref<const std::string&>());
    break;
  default:
    break;
  }
}

} // namespace

std::string go_syntax(const Json& root) {
  // Iterative, so that deeply nested keys cannot exhaust the stack.
  struct Level {
    const Json* value;
    Json::const_iterator next;
    bool first = true;
  };
  std::string out;
  std::vector<Level> stack;
  auto open = [&](const Json& v, bool in_container) {
    if (v.is_object()) {
      out += "map[interface {}]interface {}{";
      stack.push_back({&v, v.begin()});
    } else if (v.is_array()) {
      out += "[]interface {}{";
      stack.push_back({&v, v.begin()});
    } else {
      append_go_syntax_scalar(out, v, in_container);
    }
  };
  open(root, false);
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.next == level.value->end()) {
      out += '}';
      stack.pop_back();
      continue;
    }
    if (!level.first) {
      out += ", ";
    }
    level.first = false;
    auto it = level.next++;
    if (level.value->is_object()) {
      out += util::go_quote(it.key());
      out += ':';
    }
    open(*it, true);
  }
  return out;
}

} // namespace opm::catalog::gotext
