#include "yaml/detail/converter.hpp"

namespace opm::yaml::detail {

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

} // namespace opm::yaml::detail
