#include "yaml/document.hpp"

#include "json/tree.hpp"
#include "util/go_format.hpp"
#include "util/go_parse.hpp"
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

namespace opm::yaml {

namespace {

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

int read_input(void* data, unsigned char* buffer, std::size_t size, std::size_t* size_read) {
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
std::size_t count_breaks(std::string_view s) {
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
std::string go_yaml_message(bool scanner, std::size_t problem_line, std::size_t context_line,
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
double allowed_alias_ratio(std::size_t decode_count) {
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
std::size_t copy_cost(const Json& value) {
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
std::string double_quoted(std::string_view plain) {
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

std::unexpected<DocumentError> Converter::parse_failure(const yaml_parser_t& parser) {
  std::string_view problem = parser.problem != nullptr ? std::string_view(parser.problem)
                                                       : "unknown problem parsing YAML content";
  DocumentError error;
  if (parser.error == YAML_READER_ERROR) {
    // go-yaml names no line for these; the position is the byte offset of the problem.
    error.message = "yaml: " + std::string(problem);
    std::size_t offset = std::min(parser.problem_offset, m_body.size());
    std::string_view before = m_body.substr(0, offset);
    error.located = true;
    error.line = count_breaks(before);
    auto last_break = before.find_last_of('\n');
    error.column = last_break == std::string_view::npos ? offset : offset - last_break - 1;
    return std::unexpected(std::move(error));
  }
  bool scanner = parser.error == YAML_SCANNER_ERROR;
  if (!m_rewrites) {
    // Report libyaml's problem as it is.
  } else if (scanner && problem == "found unknown escape character") {
    // go-yaml takes \' inside double quotes as a quote: spell it \x27, everywhere in this
    // scalar at once.
    std::size_t at = m_cursor.byte_of(parser.problem_mark.index);
    std::size_t quote = m_cursor.byte_of(parser.context_mark.index);
    if (at + 1 < m_body.size() && m_body[at] == '\\' && m_body[at + 1] == '\'' && quote < at &&
        m_body[quote] == '"') {
      Rewrite rewrite{at, at, {}};
      for (; rewrite.end < m_body.size() && m_body[rewrite.end] != '"'; ++rewrite.end) {
        char c = m_body[rewrite.end];
        if (c == '\\' && rewrite.end + 1 < m_body.size()) {
          char escaped = m_body[++rewrite.end];
          rewrite.text += escaped == '\'' ? std::string("\\x27") : std::string{c, escaped};
          continue;
        }
        rewrite.text += c;
      }
      m_rewrite = std::move(rewrite);
    }
  } else if (scanner && problem == "did not find expected whitespace or line break" &&
             parser.context != nullptr &&
             std::string_view(parser.context) == "while scanning a tag") {
    // go-yaml's tags may hold ',', '[' and ']': spell those as URI escapes.
    m_rewrite = tag_rewrite(m_cursor.byte_of(parser.problem_mark.index));
  } else if (scanner && problem == "did not find expected tag URI") {
    m_rewrite = tag_rewrite(m_cursor.byte_of(parser.problem_mark.index));
  } else if (scanner && problem == "found unexpected ':'") {
    // In a flow collection go-yaml keeps "x:" followed by ",[]{}" as a plain scalar "x:";
    // libyaml rejects it. Quoting it gives the same string (lines fold the same way, and
    // nothing ending in ':' resolves to another type). Not where go-yaml would have ended
    // the scalar at '?' already.
    std::size_t begin = m_cursor.byte_of(parser.context_mark.index);
    std::size_t colon = m_cursor.byte_of(parser.problem_mark.index);
    if (begin < colon && colon < m_body.size() && m_body[colon] == ':') {
      std::string_view plain = m_body.substr(begin, colon + 1 - begin);
      if (plain.find('?') == std::string_view::npos) {
        m_rewrite = Rewrite{begin, colon + 1, double_quoted(plain)};
      }
    }
  }
  if (m_has_escaped_slash) {
    if (auto escape_error = slash_escape_in_lookahead(parser)) {
      return std::unexpected(std::move(*escape_error));
    }
  }
  if (scanner && m_has_escaped_slash && parser.context != nullptr &&
      std::string_view(parser.context) == "while scanning a quoted scalar") {
    // go-yaml would have stopped at a \/ escape before libyaml's problem.
    if (auto escape_error = check_quoted_escapes(parser.context_mark,
                                                 m_cursor.byte_of(parser.problem_mark.index))) {
      return std::unexpected(std::move(*escape_error));
    }
  }
  error.message =
      go_yaml_message(scanner, parser.problem_mark.line, parser.context_mark.line, problem);
  const yaml_mark_t& where = (parser.problem_mark.line != 0 || parser.context_mark.line == 0)
                                 ? parser.problem_mark
                                 : parser.context_mark;
  error.located = true;
  error.line = where.line;
  error.column = where.column;
  return std::unexpected(std::move(error));
}

std::expected<Json, DocumentError> Converter::run() {
  Parser parser(new yaml_parser_t);
  if (yaml_parser_initialize(parser.get()) == 0) {
    return std::unexpected(DocumentError{"yaml: out of memory"});
  }
  Input input{m_body, m_append_newline, 0, parser.get()};
  if (m_body.empty() && !m_append_newline) {
    input.append_newline = true; // go-yaml parses an empty input as "\n"
  }
  yaml_parser_set_input(parser.get(), read_input, &input);

  Event event;
  // STREAM-START, then an empty stream or one document.
  if (!event.parse(parser.get())) {
    return parse_failure(*parser);
  }
  if (!event.parse(parser.get())) {
    return parse_failure(*parser);
  }
  if (event.get().type == YAML_STREAM_END_EVENT) {
    return Json(nullptr);
  }
  if (const auto* version = event.get().data.document_start.version_directive;
      version != nullptr && version->minor != 1) {
    // libyaml also takes %YAML 1.2; go-yaml only 1.1.
    const yaml_mark_t& mark = event.get().start_mark;
    return fail_at(go_yaml_message(false, mark.line, 0, "found incompatible YAML document"), mark);
  }
  while (!m_root_done) {
    if (!event.parse(parser.get())) {
      return parse_failure(*parser);
    }
    if (auto error = on_event(event.get(), *parser)) {
      return std::unexpected(std::move(*error));
    }
  }
  // go-yaml reads the DOCUMENT-END event, then stops: later documents are never looked at.
  if (!event.parse(parser.get())) {
    return parse_failure(*parser);
  }
  if (m_has_escaped_slash) {
    // Tokens scanned ahead were scanned by go-yaml too, and it would have failed on them.
    if (auto error = slash_escape_in_lookahead(*parser)) {
      return std::unexpected(std::move(*error));
    }
  }
  if (m_rest == Rest::reject) {
    if (!event.parse(parser.get())) {
      return parse_failure(*parser);
    }
    if (event.get().type != YAML_STREAM_END_EVENT) {
      const yaml_mark_t& mark = event.get().start_mark;
      return fail_at("yaml: line " + std::to_string(mark.line + 1) +
                         ": content after the end of the document",
                     mark);
    }
  }
  return finish();
}

std::optional<DocumentError> Converter::on_event(const yaml_event_t& event,
                                                 const yaml_parser_t& parser) {
  const yaml_char_t* tag = nullptr;
  if (event.type == YAML_SCALAR_EVENT) {
    tag = event.data.scalar.tag;
  } else if (event.type == YAML_SEQUENCE_START_EVENT) {
    tag = event.data.sequence_start.tag;
  } else if (event.type == YAML_MAPPING_START_EVENT) {
    tag = event.data.mapping_start.tag;
  }
  if (m_rewrites && tag != nullptr && !m_frames.empty() && m_frames.back().flow &&
      check_flow_tag(event)) {
    return DocumentError{"yaml: tag to read again"};
  }
  std::optional<DocumentError> error;
  switch (event.type) {
  case YAML_SCALAR_EVENT:
    error = on_scalar(event);
    break;
  case YAML_ALIAS_EVENT:
    error = on_alias(event);
    break;
  case YAML_SEQUENCE_START_EVENT:
    error = on_start(event, NodeKind::sequence);
    break;
  case YAML_MAPPING_START_EVENT:
    error = on_start(event, NodeKind::mapping);
    break;
  case YAML_SEQUENCE_END_EVENT:
  case YAML_MAPPING_END_EVENT:
    on_end();
    break;
  default:
    break;
  }
  if (!error && static_cast<std::size_t>(parser.indents.top - parser.indents.start) > k_max_depth) {
    const yaml_mark_t& mark = parser.mark;
    error = DocumentError{go_yaml_message(true, mark.line, mark.line,
                                          "exceeded max depth of " + std::to_string(k_max_depth)),
                          true, mark.line, mark.column};
  }
  return error;
}

void Converter::count_node(const yaml_mark_t& mark, std::size_t aliased) {
  m_decode_count += 1 + aliased;
  m_alias_count += aliased;
  if (m_alias_count > 100 && m_decode_count > 1000 &&
      static_cast<double>(m_alias_count) / static_cast<double>(m_decode_count) >
          allowed_alias_ratio(m_decode_count)) {
    decode_error("yaml: document contains excessive aliasing", mark);
  }
}

std::size_t Converter::new_slot(std::string_view anchor, NodeKind kind) {
  m_slots.push_back(Slot{Json(), kind, false, 0, std::nullopt});
  m_anchors.insert_or_assign(std::string(anchor), m_slots.size() - 1);
  return m_slots.size() - 1;
}

std::optional<DocumentError> Converter::on_scalar(const yaml_event_t& event) {
  const auto& scalar = event.data.scalar;
  if (scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE && m_has_escaped_slash) {
    if (auto error =
            check_quoted_escapes(event.start_mark, m_cursor.byte_of(event.end_mark.index), true)) {
      return error;
    }
  }
  if (scalar.style == YAML_PLAIN_SCALAR_STYLE && !m_frames.empty() && m_frames.back().flow &&
      std::memchr(scalar.value, '?', scalar.length) != nullptr) {
    if (auto error = check_flow_question_mark(event)) {
      return error;
    }
  }
  std::size_t slot = k_no_slot;
  if (scalar.anchor != nullptr) {
    slot = new_slot(reinterpret_cast<const char*>(scalar.anchor), NodeKind::scalar);
  }
  bool key = in_key_position();
  if (!building()) {
    if (key) {
      m_frames.back().expect_key = false;
    } else {
      deliver(Json(), NodeKind::scalar, event.start_mark, false);
    }
    return std::nullopt;
  }
  std::string_view tag = scalar.tag != nullptr ? reinterpret_cast<const char*>(scalar.tag) : "";
  std::string text;
  bool plain = scalar.plain_implicit != 0;
  if (auto original = long_value(event)) {
    text = original->text;
    plain = original->plain;
    ++m_long_values_seen;
  } else {
    text.assign(reinterpret_cast<const char*>(scalar.value), scalar.length);
  }
  if (key && is_merge_key(tag, text, plain)) {
    // Not decoded itself: its value is merged into the mapping.
    if (slot != k_no_slot) {
      m_slots[slot] = Slot{Json(text), NodeKind::scalar, true, 1, std::nullopt};
    }
    m_frames.back().expect_key = false;
    m_frames.back().merge_next = true;
    return std::nullopt;
  }
  count_node(event.start_mark);
  Scalar value;
  if (auto error = resolve_scalar(tag, std::move(text), plain, value)) {
    decode_error("yaml: " + *error, event.start_mark);
    deliver(Json(), NodeKind::scalar, event.start_mark, false);
    return std::nullopt;
  }
  if (value.kind == Scalar::Kind::floating && !std::isfinite(value.floating)) {
    m_nonfinite = true;
  }
  if (slot != k_no_slot) {
    Scalar copy = value;
    m_slots[slot] = Slot{std::move(copy).to_json(), NodeKind::scalar, true, 1, std::nullopt};
  }
  if (key) {
    Json bad;
    if (value.kind == Scalar::Kind::null) {
      bad = nullptr;
    } else if (value.kind == Scalar::Kind::unsigned_integer) {
      bad = value.unsigned_integer;
    }
    auto name = key_string(std::move(value));
    set_key(std::move(name), &bad);
    return std::nullopt;
  }
  deliver(std::move(value).to_json(), NodeKind::scalar, event.start_mark, false);
  return std::nullopt;
}

std::optional<DocumentError> Converter::on_alias(const yaml_event_t& event) {
  std::string name(reinterpret_cast<const char*>(event.data.alias.anchor));
  auto found = m_anchors.find(name);
  if (found == m_anchors.end()) {
    return DocumentError{"yaml: unknown anchor '" + name + "' referenced", true,
                         event.start_mark.line, event.start_mark.column};
  }
  bool key = in_key_position();
  Slot& slot = m_slots[found->second];
  if (building() && !slot.complete) {
    decode_error("yaml: anchor '" + name + "' value contains itself", event.start_mark);
  }
  if (building()) {
    count_node(event.start_mark, slot.count);
    // go-yaml shares strings between copies; copies here are real. A document that expands
    // far beyond its own size is refused rather than exhausting memory.
    if (!slot.bytes) {
      slot.bytes = copy_cost(slot.value);
    }
    m_alias_bytes += *slot.bytes;
    m_structured_alias = m_structured_alias || slot.kind != NodeKind::scalar;
    if (m_alias_bytes > k_max_alias_bytes + 16 * m_body.size()) {
      decode_error("yaml: document contains excessive aliasing", event.start_mark);
    }
  }
  if (!building()) {
    if (key) {
      m_frames.back().expect_key = false;
    } else {
      deliver(Json(), slot.kind, event.start_mark, true);
    }
    return std::nullopt;
  }
  if (key && slot.kind == NodeKind::scalar) {
    set_key(key_string(slot.value), &slot.value);
    return std::nullopt;
  }
  deliver(json::deep_copy(slot.value), slot.kind, event.start_mark, true);
  return std::nullopt;
}

std::optional<DocumentError> Converter::on_start(const yaml_event_t& event, NodeKind kind) {
  bool flow = kind == NodeKind::mapping
                  ? event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                  : event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
  if (flow && m_open_flow + 1 > k_max_depth) {
    const yaml_mark_t& mark = event.start_mark;
    return DocumentError{go_yaml_message(true, mark.line, mark.line,
                                         "exceeded max depth of " + std::to_string(k_max_depth)),
                         true, mark.line, mark.column};
  }
  const yaml_char_t* anchor = kind == NodeKind::mapping ? event.data.mapping_start.anchor
                                                        : event.data.sequence_start.anchor;
  Frame frame;
  frame.kind = kind;
  frame.flow = flow;
  frame.single_pair =
      flow && kind == NodeKind::mapping && event.start_mark.index == event.end_mark.index;
  frame.is_key = in_key_position();
  frame.merge_sequence = kind == NodeKind::sequence && !m_frames.empty() &&
                         m_frames.back().kind == NodeKind::mapping && !m_frames.back().expect_key &&
                         m_frames.back().merge_next;
  frame.mark = event.start_mark;
  frame.count_start = m_decode_count;
  if (building()) {
    if (!frame.merge_sequence) {
      count_node(event.start_mark);
    }
    frame.value =
        kind == NodeKind::mapping ? Json(Json::value_t::object) : Json(Json::value_t::array);
  }
  if (anchor != nullptr) {
    frame.slot = new_slot(reinterpret_cast<const char*>(anchor), kind);
  }
  if (flow) {
    ++m_open_flow;
  }
  m_frames.push_back(std::move(frame));
  m_max_frames = std::max(m_max_frames, m_frames.size());
  return std::nullopt;
}

void Converter::on_end() {
  Frame frame = std::move(m_frames.back());
  m_frames.pop_back();
  if (frame.flow) {
    --m_open_flow;
  }
  if (!building()) {
    if (frame.is_key) {
      m_frames.back().expect_key = false;
    } else {
      deliver(Json(), frame.kind, frame.mark, false);
    }
    return;
  }
  if (frame.slot != k_no_slot) {
    m_slots[frame.slot] = Slot{json::deep_copy(frame.value), frame.kind, true,
                               m_decode_count - frame.count_start, std::nullopt};
  }
  if (frame.is_key) {
    decode_error("yaml: invalid map key: " + util::go_syntax(frame.value), frame.mark);
    m_frames.back().expect_key = false;
    return;
  }
  if (frame.merge_sequence) {
    // Checked here rather than per element: every element must be a mapping.
    bool all_maps = std::all_of(frame.value.begin(), frame.value.end(),
                                [](const Json& item) { return item.is_object(); });
    if (!all_maps) {
      decode_error("yaml: map merge requires map or sequence of maps as the value", frame.mark);
    }
  }
  deliver(std::move(frame.value), frame.kind, frame.mark, false);
}

void Converter::set_key(std::optional<std::string> key, const Json* bad_key) {
  Frame& parent = m_frames.back();
  parent.expect_key = false;
  if (key) {
    parent.key = std::move(*key);
    return;
  }
  // null or uint64: rejected when the document is turned into JSON, if it is still there.
  m_bad_keys = true;
  parent.key.assign(2, k_bad_key_mark);
  if (bad_key != nullptr && bad_key->is_number_unsigned()) {
    parent.key += std::to_string(bad_key->get<std::uint64_t>());
  }
}

void Converter::deliver(Json&& value, NodeKind kind, const yaml_mark_t& mark, bool from_alias) {
  if (m_frames.empty()) {
    m_root = std::move(value);
    m_root_done = true;
    return;
  }
  Frame& parent = m_frames.back();
  if (parent.kind == NodeKind::sequence) {
    if (building()) {
      parent.value.get_ref<Json::array_t&>().push_back(std::move(value));
    }
    return;
  }
  if (parent.expect_key) {
    // A collection (through an alias) as a key.
    if (building()) {
      decode_error("yaml: invalid map key: " + util::go_syntax(value), mark);
    }
    parent.expect_key = false;
    return;
  }
  parent.expect_key = true;
  if (parent.merge_next) {
    parent.merge_next = false;
    if (building()) {
      merge(parent, std::move(value), kind, mark, from_alias);
    }
    return;
  }
  if (building()) {
    parent.value.get_ref<Json::object_t&>().insert_or_assign(std::move(parent.key),
                                                             std::move(value));
  }
}

void Converter::merge(Frame& target, Json&& value, NodeKind kind, const yaml_mark_t& mark,
                      bool from_alias) {
  auto& object = target.value.get_ref<Json::object_t&>();
  auto take = [&object](Json& from) {
    for (auto& [key, item] : from.get_ref<Json::object_t&>()) {
      object.insert_or_assign(key, std::move(item));
    }
  };
  if (kind == NodeKind::mapping) {
    take(value);
    return;
  }
  if (kind == NodeKind::sequence && !from_alias) {
    if (m_decode_error) {
      return; // an element was not a mapping
    }
    // Earlier mappings win: apply them last.
    auto& items = value.get_ref<Json::array_t&>();
    for (auto it = items.rbegin(); it != items.rend(); ++it) {
      take(*it);
    }
    return;
  }
  decode_error("yaml: map merge requires map or sequence of maps as the value", mark);
}

std::optional<LongValues::Original> Converter::long_value(const yaml_event_t& event) const {
  const auto& scalar = event.data.scalar;
  if (m_long_values == nullptr || scalar.style != YAML_PLAIN_SCALAR_STYLE ||
      scalar.tag != nullptr || scalar.anchor != nullptr) {
    return std::nullopt;
  }
  return m_long_values->original(
      std::string_view(reinterpret_cast<const char*>(scalar.value), scalar.length));
}

std::optional<DocumentError> Converter::check_quoted_escapes(const yaml_mark_t& start,
                                                             std::size_t end, bool prefixed) {
  // libyaml accepts the JSON escape \/ in double quotes; go-yaml does not.
  std::size_t begin = m_cursor.byte_of(start.index);
  std::size_t quote = prefixed ? m_body.find('"', begin) : begin;
  if (quote >= end || quote >= m_body.size() || m_body[quote] != '"') {
    return std::nullopt;
  }
  end = std::min(end, m_body.size());
  for (std::size_t i = quote + 1; i + 1 < end; ++i) {
    if (m_body[i] != '\\') {
      continue;
    }
    if (m_body[i + 1] == '/') {
      std::string_view before = m_body.substr(begin, i - begin);
      std::size_t line = start.line + count_breaks(before);
      auto last_break = before.find_last_of("\n\r");
      std::size_t column = last_break == std::string_view::npos ? start.column + (i - begin)
                                                                : i - begin - last_break - 1;
      return DocumentError{
          go_yaml_message(true, line, start.line, "found unknown escape character"), true, line,
          column};
    }
    ++i; // skip the escaped character
  }
  return std::nullopt;
}

std::optional<DocumentError> Converter::slash_escape_in_lookahead(const yaml_parser_t& parser) {
  for (const yaml_token_t* token = parser.tokens.head; token != parser.tokens.tail; ++token) {
    if (token->type == YAML_SCALAR_TOKEN &&
        token->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) {
      if (auto error =
              check_quoted_escapes(token->start_mark, m_cursor.byte_of(token->end_mark.index))) {
        return error;
      }
    }
  }
  return std::nullopt;
}

std::optional<Rewrite> Converter::tag_rewrite(std::size_t pos) const {
  auto special = [](char c) { return c == ',' || c == '[' || c == ']'; };
  if (pos >= m_body.size() || !special(m_body[pos])) {
    return std::nullopt;
  }
  auto uri_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("-_;/?:@&=+$,.!~*'()[]%").find(c) != std::string_view::npos;
  };
  Rewrite rewrite{pos, pos, {}};
  for (; rewrite.end < m_body.size() && uri_char(m_body[rewrite.end]); ++rewrite.end) {
    char c = m_body[rewrite.end];
    if (c == ',') {
      rewrite.text += "%2C";
    } else if (c == '[') {
      rewrite.text += "%5B";
    } else if (c == ']') {
      rewrite.text += "%5D";
    } else {
      rewrite.text += c;
    }
  }
  return rewrite;
}

bool Converter::check_flow_tag(const yaml_event_t& event) {
  // In a flow collection libyaml ends a tag at ',' and goes on; go-yaml takes the ',' into
  // the tag. Find where libyaml's tag ended.
  std::size_t i = m_cursor.byte_of(event.start_mark.index);
  auto is_word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
  };
  if (i < m_body.size() && m_body[i] == '&') {
    for (++i; i < m_body.size() && is_word(m_body[i]); ++i) {
    }
    while (i < m_body.size() &&
           std::string_view(" \t\r\n").find(m_body[i]) != std::string_view::npos) {
      ++i;
    }
  }
  if (i + 1 >= m_body.size() || m_body[i] != '!' || m_body[i + 1] == '<') {
    return false;
  }
  for (++i; i < m_body.size() && is_word(m_body[i]); ++i) {
  }
  if (i < m_body.size() && m_body[i] == '!') {
    ++i;
  }
  while (i < m_body.size() &&
         (is_word(m_body[i]) ||
          std::string_view(";/?:@&=+$.!~*'()%").find(m_body[i]) != std::string_view::npos)) {
    ++i;
  }
  if (i < m_body.size() && m_body[i] == ',') {
    m_rewrite = tag_rewrite(i);
    return true;
  }
  return false;
}

std::optional<DocumentError> Converter::check_flow_question_mark(const yaml_event_t& event) {
  // In a flow collection go-yaml ends a plain scalar at '?', which then starts a key where
  // the collection expects ',' or its end. libyaml keeps '?' inside the scalar.
  std::size_t begin = m_cursor.byte_of(event.start_mark.index);
  std::size_t end = m_cursor.byte_of(event.end_mark.index);
  std::size_t mark_at = m_body.find('?', begin);
  if (mark_at == std::string_view::npos || mark_at >= end) {
    return std::nullopt;
  }
  const Frame* collection = &m_frames.back();
  if (collection->single_pair && m_frames.size() >= 2) {
    collection = &m_frames[m_frames.size() - 2];
  }
  std::string_view before = m_body.substr(begin, mark_at - begin);
  std::size_t line = event.start_mark.line + count_breaks(before);
  auto last_break = before.find_last_of("\n\r");
  std::size_t column = last_break == std::string_view::npos
                           ? event.start_mark.column + (mark_at - begin)
                           : mark_at - begin - last_break - 1;
  std::string_view problem = collection->kind == NodeKind::sequence
                                 ? "did not find expected ',' or ']'"
                                 : "did not find expected ',' or '}'";
  return DocumentError{go_yaml_message(false, line, collection->mark.line, problem), true, line,
                       column};
}

std::expected<Json, DocumentError> Converter::finish() {
  if (m_decode_error) {
    return std::unexpected(std::move(*m_decode_error));
  }
  if (m_bad_keys) {
    std::string key;
    const Json* value = json::find_in_order(
        m_root,
        [](const Json&, std::string_view k) { return !k.empty() && k[0] == k_bad_key_mark; }, &key);
    if (value != nullptr) {
      std::string type = "%!s(<nil>)";
      std::string shown = "<nil>";
      if (key.size() > 2) {
        type = "uint64";
        std::uint64_t n = std::stoull(key.substr(2));
        char buf[32];
        auto r = std::to_chars(buf, buf + sizeof buf, n, 16);
        shown = "0x" + std::string(buf, r.ptr);
      }
      return std::unexpected(DocumentError{"unsupported map key of type: " + type + ", key: " +
                                           shown + ", value: " + util::go_syntax(*value)});
    }
  }
  if (m_nonfinite) {
    const Json* value = json::find_in_order(
        m_root,
        [](const Json& v, std::string_view) {
          return v.is_number_float() && !std::isfinite(v.get<double>());
        },
        nullptr);
    if (value != nullptr) {
      return std::unexpected(DocumentError{"json: unsupported value: " +
                                           util::format_float(value->get<double>(), 'g', 64)});
    }
  }
  return std::move(m_root);
}

// The %YAML directive line `content`, on 0-based `line`: go-yaml reads at most two digits
// per number, and only version 1.1.
std::optional<DocumentError> check_version(std::string_view content, std::size_t line) {
  std::size_t i = 5;
  while (i < content.size() && (content[i] == ' ' || content[i] == '\t')) {
    ++i;
  }
  auto number = [&](std::optional<std::uint64_t>& value) -> std::optional<DocumentError> {
    std::size_t start = i;
    while (i < content.size() && content[i] >= '0' && content[i] <= '9') {
      if (i - start == 2) {
        return DocumentError{
            go_yaml_message(true, line, line, "found extremely long version number"), true, line,
            i};
      }
      ++i;
    }
    value = std::nullopt;
    if (i > start) {
      if (auto n = util::parse_go_uint(content.substr(start, i - start), 10)) {
        value = *n;
      }
    }
    return std::nullopt;
  };
  std::optional<std::uint64_t> major;
  std::optional<std::uint64_t> minor;
  if (auto error = number(major)) {
    return error;
  }
  if (!major || i >= content.size() || content[i] != '.') {
    return std::nullopt; // libyaml reports it
  }
  ++i;
  if (auto error = number(minor)) {
    return error;
  }
  while (i < content.size() && (content[i] == ' ' || content[i] == '\t')) {
    ++i;
  }
  bool clean_end = i == content.size() || content[i] == '#' || content[i] == '\r';
  if (major == 1U && minor == 2U && clean_end) {
    return DocumentError{go_yaml_message(false, line, 0, "found incompatible YAML document"), true,
                         line, 0};
  }
  return std::nullopt;
}

// go-yaml accepts only %YAML 1.1; libyaml also 1.2, and then may fail elsewhere. Look at
// the directives that open the document the way the scanner reads them.
std::optional<DocumentError> check_version_directive(std::string_view text) {
  std::size_t pos = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  std::size_t line = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    std::string_view content =
        text.substr(pos, end == std::string_view::npos ? text.npos : end - pos);
    std::size_t first = content.find_first_not_of(" \t\r");
    bool blank = first == std::string_view::npos || content[first] == '#';
    if (!blank) {
      if (!content.starts_with('%')) {
        return std::nullopt;
      }
      if (content.starts_with("%YAML") && content.size() > 5 &&
          (content[5] == ' ' || content[5] == '\t')) {
        return check_version(content, line);
      }
    }
    if (end == std::string_view::npos) {
      break;
    }
    pos = end + 1;
    ++line;
  }
  return std::nullopt;
}

} // namespace

std::expected<Json, DocumentError> document_to_json(std::string_view text, bool append_newline,
                                                    std::size_t longest_line, bool* may_be_deep,
                                                    Rest rest) {
  if (auto error = check_version_directive(text)) {
    return std::unexpected(std::move(*error));
  }
  auto long_values = find_long_values(text, longest_line >= k_long_value);
  if (long_values) {
    Converter converter(long_values->text, append_newline, &*long_values);
    converter.set_rest(rest);
    auto result = converter.run();
    if (result && converter.long_values_intact()) {
      if (may_be_deep != nullptr) {
        *may_be_deep = converter.may_be_deep();
      }
      return result;
    }
    // A placeholder was not a whole scalar, or something failed: the exact path decides.
  }
  std::string rewritten;
  std::string_view body = text;
  // Where libyaml stops at text go-yaml accepts, that text is spelled the way libyaml takes
  // it and the document read again.
  constexpr int k_max_rewrites = 100;
  for (int attempt = 0;; ++attempt) {
    Converter converter(body, append_newline, nullptr, attempt < k_max_rewrites);
    converter.set_rest(rest);
    auto result = converter.run();
    if (result || !converter.rewrite()) {
      if (may_be_deep != nullptr) {
        *may_be_deep = converter.may_be_deep();
      }
      return result;
    }
    const Rewrite& rewrite = *converter.rewrite();
    std::string next = std::string(body.substr(0, rewrite.begin)) + rewrite.text +
                       std::string(body.substr(rewrite.end));
    rewritten = std::move(next);
    body = rewritten;
  }
}

} // namespace opm::yaml
