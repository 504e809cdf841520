#include "yaml/detail/converter.hpp"

namespace opm::yaml::detail {

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
  if (frame.kind == NodeKind::mapping) {
    frame.value.get_ref<Json::object_t&>().take_members(frame.members);
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
    parent.members.emplace_back(std::move(parent.key), std::move(value));
  }
}

void Converter::merge(Frame& target, Json&& value, NodeKind kind, const yaml_mark_t& mark,
                      bool from_alias) {
  auto take = [&target](Json& from) {
    for (auto& [key, item] : from.get_ref<Json::object_t&>()) {
      target.members.emplace_back(key, std::move(item));
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

} // namespace opm::yaml::detail
