#pragma once

#include "json/tree.hpp"
#include "util/go_format.hpp"
#include "util/go_parse.hpp"
#include "yaml/document.hpp"
#include "yaml/long_values.hpp"
#include "yaml/resolve.hpp"

#include <yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

// The libyaml event walk that builds a document's value as go-yaml and sigs.k8s.io/yaml
// would (converter.cpp), the places where go-yaml reads text differently from libyaml
// (converter_checks.cpp), and the small pieces they share. Only yaml/ includes this.
namespace opm::yaml::detail {

// go-yaml reads its input 512 bytes at a time; reading the same way makes reader errors
// (bad UTF-8, control characters) surface at the same point of the scan.
constexpr std::size_t k_read_size = 512;
// go-yaml's max_flow_level and max_indents.
constexpr std::size_t k_max_depth = 10000;
constexpr std::size_t k_no_slot = static_cast<std::size_t>(-1);
// Beyond go-yaml's own limits: how much alias copies may add to a document.
constexpr std::size_t k_max_alias_bytes = std::size_t{64} << 20;
// Keys sigs.k8s.io/yaml cannot turn into strings are kept under a name no YAML text can
// produce (0xFF never appears in valid UTF-8), and reported once the document is complete.
constexpr char k_bad_key_mark = '\xFF';

struct ParserDeleter {
  void operator()(yaml_parser_t* parser) const noexcept {
    yaml_parser_delete(parser);
    delete parser;
  }
};
using Parser = std::unique_ptr<yaml_parser_t, ParserDeleter>;

class Event {
public:
  Event() = default;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { reset(); }

  bool parse(yaml_parser_t* parser) {
    reset();
    if (yaml_parser_parse(parser, &m_event) == 0) {
      return false;
    }
    m_live = true;
    return true;
  }
  void reset() {
    if (m_live) {
      yaml_event_delete(&m_event);
      m_live = false;
    }
  }
  const yaml_event_t& get() const { return m_event; }

private:
  yaml_event_t m_event{};
  bool m_live = false;
};

struct Input {
  std::string_view body;
  bool append_newline = false;
  std::size_t pos = 0;
  yaml_parser_t* parser = nullptr;
};

inline int read_input(void* data, unsigned char* buffer, std::size_t size, std::size_t* size_read) {
  auto& in = *static_cast<Input*>(data);
  std::size_t total = in.body.size() + (in.append_newline ? 1 : 0);
  auto held = static_cast<std::size_t>(in.parser->raw_buffer.last - in.parser->raw_buffer.start);
  std::size_t want = held < k_read_size ? k_read_size - held : 1;
  want = std::min({want, size, total - in.pos});
  std::size_t from_body = 0;
  if (in.pos < in.body.size()) {
    from_body = std::min(want, in.body.size() - in.pos);
    std::memcpy(buffer, in.body.data() + in.pos, from_body);
  }
  if (from_body < want) {
    buffer[from_body] = '\n';
  }
  in.pos += want;
  *size_read = want;
  return 1;
}

// Line breaks as libyaml counts them: \r\n, \r, \n, NEL, LS and PS.
inline std::size_t count_breaks(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\n') {
      ++n;
    } else if (c == '\r') {
      ++n;
      if (i + 1 < s.size() && s[i + 1] == '\n') {
        ++i;
      }
    } else if (c == '\xC2' && i + 1 < s.size() && s[i + 1] == '\x85') {
      ++n;
    } else if (c == '\xE2' && i + 2 < s.size() && s[i + 1] == '\x80' &&
               (s[i + 2] == '\xA8' || s[i + 2] == '\xA9')) {
      ++n;
    }
  }
  return n;
}

// The "yaml: line N: problem" text of go-yaml's parser failure: the problem's line (one more
// for scanner errors) unless it is the first line, else the context's line, else none.
inline std::string go_yaml_message(bool scanner, std::size_t problem_line, std::size_t context_line,
                                   std::string_view problem) {
  std::size_t line = 0;
  if (problem_line != 0) {
    line = scanner ? problem_line + 1 : problem_line;
  } else if (context_line != 0) {
    line = context_line;
  }
  std::string out = "yaml: ";
  if (line != 0) {
    out += "line " + std::to_string(line) + ": ";
  }
  out += problem;
  return out;
}

// go-yaml's limit on how much of a document may come from expanding aliases.
inline double allowed_alias_ratio(std::size_t decode_count) {
  constexpr double k_low = 400000;
  constexpr double k_high = 4000000;
  auto count = static_cast<double>(decode_count);
  if (count <= k_low) {
    return 0.99;
  }
  if (count >= k_high) {
    return 0.10;
  }
  return 0.99 - 0.89 * ((count - k_low) / (k_high - k_low));
}

enum class NodeKind { scalar, sequence, mapping };

struct Slot {
  Json value;
  NodeKind kind = NodeKind::scalar;
  bool complete = false;
  std::size_t count = 0;            // go-yaml decode calls it takes to decode the node
  std::optional<std::size_t> bytes; // roughly what a copy of the value costs
};

// Roughly the memory a copy of `value` takes: its strings and a little per node.
inline std::size_t copy_cost(const Json& value) {
  std::size_t bytes = 0;
  json::find_in_order(value, [&bytes](const Json& node, std::string_view key) {
    bytes += 32 + key.size() + (node.is_string() ? node.get_ref<const std::string&>().size() : 0);
    return false;
  });
  return bytes;
}

struct Frame {
  NodeKind kind = NodeKind::mapping;
  bool flow = false;
  bool single_pair = false;    // a "k: v" pair libyaml turned into a mapping in a flow sequence
  bool merge_sequence = false; // the value of a "<<" key
  bool is_key = false;         // this collection is itself a mapping key
  Json value;
  std::size_t slot = k_no_slot;
  std::size_t count_start = 0;
  yaml_mark_t mark{};
  // Mappings: where we are in the key/value alternation.
  bool expect_key = true;
  bool merge_next = false; // the current key is "<<"
  std::string key;
  // A mapping's members as they come, later ones winning: made its value at its end.
  Json::object_t::storage members;
};

// Finds the byte offset of a libyaml character index in UTF-8 text.
class CharCursor {
public:
  explicit CharCursor(std::string_view text) : m_text(text) {
    if (m_text.starts_with("\xEF\xBB\xBF")) {
      m_origin = 3; // libyaml does not count the byte order mark
    }
    m_byte = m_origin;
  }

  std::size_t byte_of(std::size_t index) {
    if (index < m_index) {
      m_index = 0;
      m_byte = m_origin;
    }
    while (m_index < index && m_byte < m_text.size()) {
      ++m_byte;
      while (m_byte < m_text.size() &&
             (static_cast<unsigned char>(m_text[m_byte]) & 0xC0) == 0x80) {
        ++m_byte;
      }
      ++m_index;
    }
    return std::min(m_byte, m_text.size());
  }

private:
  std::string_view m_text;
  std::size_t m_origin = 0;
  std::size_t m_index = 0;
  std::size_t m_byte = 0;
};

// Replace bytes [begin, end) of a document with `text`.
struct Rewrite {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text;
};

// A plain scalar as a double-quoted one with the same content.
inline std::string double_quoted(std::string_view plain) {
  std::string out = "\"";
  for (char c : plain) {
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  out += '"';
  return out;
}

class Converter {
public:
  // Without `rewrites`, text go-yaml reads differently is taken as libyaml reads it.
  Converter(std::string_view body, bool append_newline, const LongValues* long_values = nullptr,
            bool rewrites = true)
      : m_body(body), m_append_newline(append_newline), m_cursor(body),
        m_has_escaped_slash(body.find("\\/") != std::string_view::npos), m_long_values(long_values),
        m_rewrites(rewrites) {}

  std::expected<Json, DocumentError> run();

  void set_rest(Rest rest) { m_rest = rest; }

  // Set when libyaml rejected text that go-yaml accepts, with an equivalent spelling that
  // libyaml takes.
  [[nodiscard]] const std::optional<Rewrite>& rewrite() const { return m_rewrite; }

  // Whether the value may nest deeper than the collections seen: aliases add their depth.
  [[nodiscard]] bool may_be_deep() const {
    return m_structured_alias || m_max_frames > k_max_depth;
  }

  // Whether every placeholder of the long values came back as a whole scalar.
  [[nodiscard]] bool long_values_intact() const {
    return m_long_values == nullptr || m_long_values_seen == m_long_values->originals.size();
  }

private:
  bool building() const { return !m_decode_error; }

  std::unexpected<DocumentError> parse_failure(const yaml_parser_t& parser);
  std::unexpected<DocumentError> fail_at(std::string message, const yaml_mark_t& mark) {
    return std::unexpected(DocumentError{std::move(message), true, mark.line, mark.column});
  }
  void decode_error(std::string message, const yaml_mark_t& mark) {
    if (!m_decode_error) {
      m_decode_error = DocumentError{std::move(message), true, mark.line, mark.column};
    }
  }

  std::optional<DocumentError> on_event(const yaml_event_t& event, const yaml_parser_t& parser);
  std::optional<DocumentError> on_scalar(const yaml_event_t& event);
  std::optional<DocumentError> on_alias(const yaml_event_t& event);
  std::optional<DocumentError> on_start(const yaml_event_t& event, NodeKind kind);
  void on_end();

  std::optional<LongValues::Original> long_value(const yaml_event_t& event) const;
  // The scalar starts at `start` (its opening quote, or a tag or anchor before it when
  // `prefixed`) and ends before byte `end`.
  std::optional<DocumentError> check_quoted_escapes(const yaml_mark_t& start, std::size_t end,
                                                    bool prefixed = false);
  // The first \/ escape in the double-quoted scalars libyaml scanned ahead but did not
  // parse yet: go-yaml's scanner would have stopped there.
  std::optional<DocumentError> slash_escape_in_lookahead(const yaml_parser_t& parser);
  // The spelling of go-yaml's tag from `pos`, where libyaml's tag stopped at ',', '[' or ']'.
  std::optional<Rewrite> tag_rewrite(std::size_t pos) const;
  // Whether a tagged node in a flow collection needs its tag rewritten (m_rewrite is set).
  bool check_flow_tag(const yaml_event_t& event);
  std::optional<DocumentError> check_flow_question_mark(const yaml_event_t& event);

  bool in_key_position() const {
    return !m_frames.empty() && m_frames.back().kind == NodeKind::mapping &&
           m_frames.back().expect_key;
  }
  void count_node(const yaml_mark_t& mark, std::size_t aliased = 0);
  std::size_t new_slot(std::string_view anchor, NodeKind kind);
  void set_key(std::optional<std::string> key, const Json* bad_key);
  void deliver(Json&& value, NodeKind kind, const yaml_mark_t& mark, bool from_alias);
  void merge(Frame& target, Json&& value, NodeKind kind, const yaml_mark_t& mark, bool from_alias);
  std::expected<Json, DocumentError> finish();

  std::string_view m_body;
  bool m_append_newline;
  CharCursor m_cursor;
  bool m_has_escaped_slash;

  std::vector<Frame> m_frames;
  std::size_t m_open_flow = 0;
  std::vector<Slot> m_slots;
  std::unordered_map<std::string, std::size_t> m_anchors;
  Json m_root;
  bool m_root_done = false;

  std::optional<DocumentError> m_decode_error;
  std::size_t m_decode_count = 0;
  std::size_t m_alias_count = 0;
  std::size_t m_alias_bytes = 0;
  std::size_t m_max_frames = 0;
  bool m_structured_alias = false;
  bool m_bad_keys = false;
  bool m_nonfinite = false;
  std::optional<Rewrite> m_rewrite;
  const LongValues* m_long_values;
  bool m_rewrites;
  std::size_t m_long_values_seen = 0;
  Rest m_rest = Rest::ignore;
};

} // namespace opm::yaml::detail
