#include "registry/challenge.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <cctype>

namespace opm::registry {

namespace {

bool is_token_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) ||
         std::string_view("!#$%&'*+-.^_`|~/").find(c) != std::string_view::npos;
}

class Scanner {
public:
  explicit Scanner(std::string_view s) : m_s(s) {}
  void skip_space() {
    while (m_i < m_s.size() && (m_s[m_i] == ' ' || m_s[m_i] == '\t')) {
      ++m_i;
    }
  }
  void skip_space_and_commas() {
    while (m_i < m_s.size() && (m_s[m_i] == ' ' || m_s[m_i] == '\t' || m_s[m_i] == ',')) {
      ++m_i;
    }
  }
  bool done() const { return m_i >= m_s.size(); }
  char peek() const { return done() ? '\0' : m_s[m_i]; }
  void advance() { ++m_i; }
  std::size_t pos() const { return m_i; }
  void seek(std::size_t p) { m_i = p; }
  std::string_view token() {
    std::size_t start = m_i;
    while (m_i < m_s.size() && (is_token_char(m_s[m_i]) || m_s[m_i] == '=')) {
      // '=' belongs to token68 only at the end; stop at the first '=' for names.
      if (m_s[m_i] == '=') {
        break;
      }
      ++m_i;
    }
    return m_s.substr(start, m_i - start);
  }
  std::string quoted() {
    std::string out;
    ++m_i; // opening quote
    while (m_i < m_s.size() && m_s[m_i] != '"') {
      if (m_s[m_i] == '\\' && m_i + 1 < m_s.size()) {
        ++m_i;
      }
      out += m_s[m_i++];
    }
    if (m_i < m_s.size()) {
      ++m_i; // closing quote
    }
    return out;
  }

private:
  std::string_view m_s;
  std::size_t m_i = 0;
};

} // namespace

std::vector<Challenge> parse_challenges(std::string_view header) {
  std::vector<Challenge> out;
  Scanner sc(header);
  sc.skip_space_and_commas();
  while (!sc.done()) {
    std::string_view scheme = sc.token();
    if (scheme.empty()) {
      sc.advance(); // unexpected character: skip it
      sc.skip_space_and_commas();
      continue;
    }
    Challenge ch;
    ch.scheme = util::ascii_lower(scheme);
    sc.skip_space();
    // Parameters until the next "scheme" (a token not followed by '=').
    for (;;) {
      sc.skip_space_and_commas();
      if (sc.done()) {
        break;
      }
      std::size_t mark = sc.pos();
      std::string_view name = sc.token();
      sc.skip_space();
      if (name.empty() || sc.peek() != '=') {
        sc.seek(mark);
        break;
      }
      sc.advance(); // '='
      sc.skip_space();
      std::string value;
      if (sc.peek() == '"') {
        value = sc.quoted();
      } else {
        std::size_t start = sc.pos();
        while (!sc.done() && sc.peek() != ',' && sc.peek() != ' ' && sc.peek() != '\t') {
          sc.advance();
        }
        value = std::string(header.substr(start, sc.pos() - start));
      }
      ch.params[util::ascii_lower(name)] = std::move(value);
    }
    out.push_back(std::move(ch));
  }
  return out;
}

const Challenge* pick_challenge(const std::vector<Challenge>& all) {
  for (const auto& c : all) {
    if (c.scheme == "bearer") {
      return &c;
    }
  }
  for (const auto& c : all) {
    if (c.scheme == "basic") {
      return &c;
    }
  }
  return nullptr;
}

} // namespace opm::registry
