#include "yaml/detail/block_layout.hpp"

#include "json/pending_members.hpp"
#include "util/avx2.hpp"
#include "util/go_parse.hpp"
#include "util/strings.hpp"
#include "util/swar.hpp"
#include "yaml/detail/literal_block.hpp"
#include "yaml/resolve.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace opm::yaml::detail {

namespace {

// Far below go-yaml's own limit, so that no depth error is ever missed here.
constexpr std::size_t k_max_nesting = 1000;
// libyaml stops looking for the ':' of a simple key after 1024 characters.
constexpr std::size_t k_max_key = 1000;

struct Line {
  std::size_t begin = 0;  // its first byte
  std::size_t end = 0;    // its line break, or the end of the text
  std::size_t indent = 0; // leading spaces
  bool blank = false;     // only spaces, or a comment
  bool terminated = false;
};

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && s.back() == ' ') {
    s.remove_suffix(1);
  }
  return s;
}

bool is_sequence_entry(std::string_view content) {
  return content == "-" || content.starts_with("- ");
}

// A quoted scalar opening `s`, as libyaml's scanner reads it (line breaks folded, escapes
// decoded), and where it ends in `s` (after its closing quote); nullopt where it does not
// close within `s` or uses an escape left to libyaml.
struct Quoted {
  std::string value;
  std::size_t end = 0;
};

// The code point of `digits` hex digits after an escape at `s[i]`, or nullopt.
std::optional<char32_t> hex_escape(std::string_view s, std::size_t i, std::size_t digits) {
  if (i + 2 + digits > s.size()) {
    return std::nullopt;
  }
  auto value = util::parse_go_uint(s.substr(i + 2, digits), 16);
  if (!value) {
    return std::nullopt;
  }
  auto cp = static_cast<char32_t>(*value);
  if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
    return std::nullopt;
  }
  return cp;
}

// The escape at `s[i]` (a backslash not ending its line) appended to `out`; how many bytes
// it takes, or 0 for one left to libyaml ("\/" among them, which go-yaml refuses).
std::size_t read_escape(std::string_view s, std::size_t i, std::string& out) {
  if (i + 1 >= s.size()) {
    return 0;
  }
  static constexpr std::string_view k_from = "abtnvfre \"\\";
  static constexpr std::string_view k_to = "\a\b\t\n\v\f\r\x1B \"\\";
  if (auto simple = k_from.find(s[i + 1]); simple != std::string_view::npos) {
    out += k_to[simple];
    return 2;
  }
  static constexpr std::string_view k_named = "N_LP";
  static constexpr char32_t k_named_points[] = {0x85, 0xA0, 0x2028, 0x2029};
  if (auto named = k_named.find(s[i + 1]); named != std::string_view::npos) {
    util::append_utf8(out, k_named_points[named]);
    return 2;
  }
  std::size_t digits = s[i + 1] == 'x' ? 2 : s[i + 1] == 'u' ? 4 : s[i + 1] == 'U' ? 8 : 0;
  auto cp = digits != 0 ? hex_escape(s, i, digits) : std::nullopt;
  if (!cp) {
    return 0;
  }
  util::append_utf8(out, *cp);
  return 2 + digits;
}

// Where the quoted scalar opening `s` closes, or the end of `s`: a bound on its value's size
// (of the escapes, only \L and \P decode longer than they are written).
std::size_t closing_quote(std::string_view s) {
  const char close = s[0];
  for (std::size_t at = s.find(close, 1); at != std::string_view::npos;
       at = s.find(close, at + 1)) {
    if (close == '\'') {
      if (at + 1 == s.size() || s[at + 1] != '\'') {
        return at;
      }
      ++at; // a quote written twice
      continue;
    }
    std::size_t backslashes = 0;
    while (s[at - 1 - backslashes] == '\\') {
      ++backslashes;
    }
    if (backslashes % 2 == 0) {
      return at;
    }
  }
  return s.size();
}

// The usual quoted scalar, closed on its own line without an escape: its bytes as written.
std::optional<Quoted> quoted_on_its_line(std::string_view s) {
  const bool single = s[0] == '\'';
  const std::size_t at = s.find_first_of(single ? std::string_view("'\n") : "\"\\\n", 1);
  if (at == std::string_view::npos || s[at] != s[0] ||
      (single && at + 1 < s.size() && s[at + 1] == '\'')) {
    return std::nullopt;
  }
  return Quoted{std::string(s.substr(1, at - 1)), at + 1};
}

// libyaml's scan_flow_scalar, for text without tabs or line breaks other than "\n".
std::optional<Quoted> quoted(std::string_view s) {
  if (auto plain = quoted_on_its_line(s)) {
    return plain;
  }
  const bool single = s[0] == '\'';
  const char close = s[0];
  Quoted q;
  q.value.reserve(closing_quote(s));
  std::size_t i = 1;
  std::string whitespaces;
  std::size_t trailing_breaks = 0;
  while (true) {
    bool leading_blanks = false;
    bool leading_break = false;
    while (i < s.size() && s[i] != ' ' && s[i] != '\n') {
      if (single && s[i] == '\'' && i + 1 < s.size() && s[i + 1] == '\'') {
        q.value += '\'';
        i += 2;
      } else if (s[i] == close) {
        break;
      } else if (!single && s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') {
        i += 2;
        leading_blanks = true;
        break;
      } else if (!single && s[i] == '\\') {
        std::size_t taken = read_escape(s, i, q.value);
        if (taken == 0) {
          return std::nullopt;
        }
        i += taken;
      } else {
        std::size_t run = i + 1;
        while (run < s.size() && s[run] != ' ' && s[run] != '\n' && s[run] != close &&
               s[run] != '\\') {
          ++run;
        }
        q.value.append(s.substr(i, run - i));
        i = run;
      }
    }
    if (i >= s.size()) {
      return std::nullopt;
    }
    if (s[i] == close) {
      q.end = i + 1;
      return q;
    }
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n')) {
      if (s[i] == ' ') {
        if (!leading_blanks) {
          whitespaces += ' ';
        }
      } else if (!leading_blanks) {
        whitespaces.clear();
        leading_break = true;
        leading_blanks = true;
      } else {
        ++trailing_breaks;
      }
      ++i;
    }
    if (leading_blanks) {
      if (leading_break && trailing_breaks == 0) {
        q.value += ' ';
      } else {
        q.value.append(trailing_breaks, '\n');
      }
      trailing_breaks = 0;
    } else {
      q.value += whitespaces;
      whitespaces.clear();
    }
  }
}

// Whether a plain scalar may start with `s` without the scanner taking it for something
// else; a few legal starts ("?x", ":x") are left to libyaml too.
bool plain_start(std::string_view s) {
  static constexpr auto k_indicators = [] {
    std::array<bool, 256> table{};
    table[0] = true; // as strchr finds the terminator
    for (unsigned char c : std::string_view("?:,[]{}#&*!|>'\"%@`")) {
      table[c] = true;
    }
    return table;
  }();
  char c = s[0];
  if (c == '-') {
    return s.size() > 1 && s[1] != ' ';
  }
  return !k_indicators[static_cast<unsigned char>(c)];
}

// Whether one line of a plain scalar, `text`, holds nothing the scanner would stop at: no ": ",
// no " #" and no ':' at its end. The rare ':' and '#' are looked for, not the many spaces.
bool plain_line(std::string_view text) {
  if (text.back() == ':') {
    return false;
  }
  for (auto at = text.find(':'); at != std::string_view::npos; at = text.find(':', at + 1)) {
    if (at + 1 < text.size() && text[at + 1] == ' ') {
      return false;
    }
  }
  for (auto at = text.find('#'); at != std::string_view::npos; at = text.find('#', at + 1)) {
    if (at > 0 && text[at - 1] == ' ') {
      return false;
    }
  }
  return true;
}

std::optional<Json> resolved_plain(std::string_view text) {
  if (resolves_to_string(text)) { // most values: their text as it stands
    return Json(std::string(text));
  }
  Scalar value;
  if (resolve_scalar("", std::string(text), true, value)) {
    return std::nullopt;
  }
  if (value.kind == Scalar::Kind::floating && !std::isfinite(value.floating)) {
    return std::nullopt; // an error once the document is JSON
  }
  return std::move(value).to_json();
}

// A "key: value" or "key:" line's key and where its value starts.
struct Key {
  std::string name;
  std::size_t value = 0;
};
enum class KeyShape { key, not_a_key, unsure };

KeyShape split_key(std::string_view content, Key& out) {
  if (content[0] == '"' || content[0] == '\'') {
    auto q = quoted(content);
    if (!q) {
      return KeyShape::unsure;
    }
    std::size_t colon = q->end;
    if (colon >= content.size() || content[colon] != ':') {
      return KeyShape::not_a_key;
    }
    if (colon + 1 < content.size() && content[colon + 1] != ' ') {
      return KeyShape::unsure;
    }
    out.name = std::move(q->value);
    out.value = colon + 1;
    return KeyShape::key;
  }
  std::size_t colon = 0;
  while (true) {
    colon = content.find(':', colon);
    if (colon == std::string_view::npos) {
      return KeyShape::not_a_key;
    }
    if (colon + 1 == content.size() || content[colon + 1] == ' ') {
      break;
    }
    ++colon;
  }
  std::string_view name = trim_right(content.substr(0, colon));
  if (name.empty() || name.size() > k_max_key || !plain_start(name) ||
      name.find(" #") != std::string_view::npos || name == "<<") {
    return KeyShape::unsure;
  }
  if (resolves_to_string(name)) { // most keys: their text as it stands
    out.name = name;
    out.value = colon + 1;
    return KeyShape::key;
  }
  Scalar key;
  if (resolve_scalar("", std::string(name), true, key)) {
    return KeyShape::unsure;
  }
  if (key.kind == Scalar::Kind::floating && !std::isfinite(key.floating)) {
    return KeyShape::unsure;
  }
  auto text = key_string(std::move(key));
  if (!text) {
    return KeyShape::unsure; // null and uint64 keys fail, with libyaml's location
  }
  out.name = std::move(*text);
  out.value = colon + 1;
  return KeyShape::key;
}

class BlockReader {
public:
  explicit BlockReader(std::string_view text) : m_text(text) {}

  std::optional<Json> read() {
    if (!split_lines()) {
      return std::nullopt;
    }
    skip_blank();
    if (m_next == m_lines.size()) {
      return std::nullopt;
    }
    auto value = block(m_lines[m_next].indent);
    skip_blank();
    if (!value || m_next != m_lines.size()) {
      return std::nullopt;
    }
    return value;
  }

private:
  bool split_lines() {
    m_lines.reserve(m_text.size() / 32);
    bool content_seen = false;
    util::LineBreakFinder line_breaks(m_text);
    std::size_t plain_until = 0; // the bytes before it are printable ASCII or line breaks
    for (std::size_t pos = 0; pos < m_text.size();) {
      if (pos >= plain_until) {
        plain_until = plain_text_end(pos);
      }
      std::size_t end = line_breaks.next(pos);
      if (end > plain_until) { // a byte to look at: the line is checked byte by byte
        auto found = text_line_end(m_text, pos, false);
        if (!found) {
          return false;
        }
        end = *found;
      }
      std::string_view text = m_text.substr(pos, end - pos);
      Line line{pos, end, util::swar::leading_spaces(text), false, end < m_text.size()};
      line.blank = line.indent == text.size() || text[line.indent] == '#';
      if (!line.blank && line.indent == 0) {
        if (text.starts_with("---") || text.starts_with("...") || text[0] == '%') {
          if (content_seen || text != "---") {
            return false; // directives, markers and later documents are libyaml's
          }
          line.blank = true;
        }
        content_seen = true;
      }
      content_seen = content_seen || !line.blank;
      m_lines.push_back(line);
      pos = end + 1;
    }
    return true;
  }

  // The first byte from `pos` on that is neither printable ASCII nor a line break, or the end.
  std::size_t plain_text_end(std::size_t pos) const {
    const auto* p = reinterpret_cast<const unsigned char*>(m_text.data());
    const std::size_t n = m_text.size();
    pos = util::skip_text_blocks(p, pos, n);
    while (pos < n && ((p[pos] >= 0x20 && p[pos] < 0x7F) || p[pos] == '\n')) {
      ++pos;
    }
    return pos;
  }

  void skip_blank() {
    while (m_next < m_lines.size() && m_lines[m_next].blank) {
      ++m_next;
    }
  }

  std::string_view content(const Line& line, std::size_t column) const {
    return m_text.substr(line.begin + column, line.end - line.begin - column);
  }

  // The node whose first line is the next one, indented by `indent`.
  std::optional<Json> block(std::size_t indent) {
    if (is_sequence_entry(content(m_lines[m_next], indent))) {
      return sequence(indent);
    }
    return mapping(indent, indent);
  }

  // What follows "key:" or "-" ending a line: a more indented node, a sequence beside the
  // keys of `indent` (when `sequence_beside`), or null.
  std::optional<Json> nested(std::size_t indent, bool sequence_beside) {
    ++m_next;
    skip_blank();
    if (m_next < m_lines.size()) {
      const Line& line = m_lines[m_next];
      if (line.indent > indent) {
        return block(line.indent);
      }
      if (sequence_beside && line.indent == indent && is_sequence_entry(content(line, indent))) {
        return sequence(indent);
      }
    }
    return Json(nullptr);
  }

  std::optional<Json> sequence(std::size_t indent) {
    if (++m_depth > k_max_nesting) {
      return std::nullopt; // nothing is read after a refusal, so the count stays as it is
    }
    Json out = Json::array();
    auto& items = out.get_ref<Json::array_t&>();
    while (true) {
      skip_blank();
      if (m_next == m_lines.size() || m_lines[m_next].indent < indent) {
        break;
      }
      const Line& line = m_lines[m_next];
      if (line.indent > indent) {
        return std::nullopt;
      }
      if (!is_sequence_entry(content(line, indent))) {
        break;
      }
      std::size_t column = indent + 1;
      while (line.begin + column < line.end && m_text[line.begin + column] == ' ') {
        ++column;
      }
      std::string_view rest = content(line, column);
      std::optional<Json> item;
      Key key;
      if (rest.empty()) {
        item = nested(indent, false);
      } else if (is_sequence_entry(rest)) {
        return std::nullopt;
      } else {
        switch (split_key(rest, key)) {
        case KeyShape::key:
          item = mapping(column, column, &key);
          break;
        case KeyShape::not_a_key:
          item = inline_value(rest, indent);
          break;
        case KeyShape::unsure:
          return std::nullopt;
        }
      }
      if (!item) {
        return std::nullopt;
      }
      items.push_back(std::move(*item));
    }
    --m_depth;
    return out;
  }

  // A mapping whose keys sit at `indent`; on its first line the key starts at `first_column`
  // (and is `first_key`, when the caller has read it already).
  std::optional<Json> mapping(std::size_t indent, std::size_t first_column,
                              Key* first_key = nullptr) {
    if (++m_depth > k_max_nesting) {
      return std::nullopt;
    }
    Json::object_t::storage& pending = m_pending.at(m_depth);
    pending.clear();
    for (bool first = true;; first = false) {
      std::size_t column = first_column;
      if (!first) {
        skip_blank();
        if (m_next == m_lines.size() || m_lines[m_next].indent < indent) {
          break;
        }
        if (m_lines[m_next].indent > indent) {
          return std::nullopt;
        }
        column = indent;
      }
      std::string_view line = content(m_lines[m_next], column);
      Key key;
      if (first && first_key != nullptr) {
        key = std::move(*first_key);
      } else if (is_sequence_entry(line) || split_key(line, key) != KeyShape::key) {
        return std::nullopt;
      }
      std::string_view rest = line.substr(key.value);
      rest.remove_prefix(util::swar::leading_spaces(rest));
      auto value = rest.empty() ? nested(column, true) : inline_value(rest, column);
      if (!value) {
        return std::nullopt;
      }
      pending.emplace_back(std::move(key.name), std::move(*value));
    }
    Json out = Json::object();
    if (out.get_ref<Json::object_t&>().take_members(pending) != 0) {
      return std::nullopt; // duplicate keys are left to libyaml's walk
    }
    --m_depth;
    return out;
  }

  // The value that starts at `rest` on the current line, in a collection at `indent`.
  std::optional<Json> inline_value(std::string_view rest, std::size_t indent) {
    rest = trim_right(rest);
    const Line& line = m_lines[m_next];
    if (rest[0] == '|') {
      auto header = literal_header(rest);
      auto literal = header && line.terminated
                         ? literal_block(m_text, line.end + 1, indent, *header)
                         : std::nullopt;
      if (!literal) {
        return std::nullopt;
      }
      while (m_next < m_lines.size() && m_lines[m_next].begin <= literal->end) {
        ++m_next;
      }
      return Json(std::move(literal->value));
    }
    if (rest[0] == '"' || rest[0] == '\'') {
      return quoted_value(static_cast<std::size_t>(rest.data() - m_text.data()));
    }
    ++m_next;
    if (rest == "[]") {
      return Json::array();
    }
    if (rest == "{}") {
      return Json::object();
    }
    if (!plain_start(rest) || !plain_line(rest)) {
      return std::nullopt;
    }
    std::string folded;
    if (!fold_plain_lines(indent, rest, folded)) {
      return std::nullopt;
    }
    return resolved_plain(folded.empty() ? rest : std::string_view(folded));
  }

  // The quoted scalar that opens at byte `open`, on the current line; nothing but spaces may
  // follow it on the line it closes on.
  std::optional<Json> quoted_value(std::size_t open) {
    auto q = quoted(m_text.substr(open));
    if (!q) {
      return std::nullopt;
    }
    std::size_t end = open + q->end;
    while (m_lines[m_next].end < end) {
      ++m_next;
    }
    const Line& last = m_lines[m_next];
    if (trim_right(m_text.substr(end, last.end - end)).size() != 0) {
      return std::nullopt;
    }
    ++m_next;
    return Json(std::move(q->value));
  }

  // The lines that continue a plain scalar whose first line is `first`, in a collection at
  // `indent`, folded onto it as libyaml folds them (into `folded`, left empty when there are
  // none). False where the layout is left to libyaml.
  bool fold_plain_lines(std::size_t indent, std::string_view first, std::string& folded) {
    std::size_t empty_lines = 0;
    for (std::size_t next = m_next; next < m_lines.size(); ++next) {
      const Line& line = m_lines[next];
      if (line.indent == line.end - line.begin) {
        ++empty_lines;
        continue;
      }
      if (line.indent <= indent) {
        break;
      }
      std::string_view text = trim_right(content(line, line.indent));
      if (text[0] == '#' || !plain_line(text)) {
        return false; // a comment or a value indicator ends the scalar: left to libyaml
      }
      if (folded.empty()) {
        folded = first;
      }
      if (empty_lines == 0) {
        folded += ' ';
      } else {
        folded.append(empty_lines, '\n');
      }
      folded += text;
      empty_lines = 0;
      m_next = next + 1;
    }
    return true;
  }

  std::string_view m_text;
  json::PendingMembers m_pending;
  std::vector<Line> m_lines;
  std::size_t m_next = 0;
  std::size_t m_depth = 0;
};

} // namespace

std::optional<Json> read_block_layout(std::string_view text) { return BlockReader(text).read(); }

} // namespace opm::yaml::detail
