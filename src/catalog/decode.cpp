#include "catalog/decode.hpp"

#include "json/go_json.hpp"
#include "util/strings.hpp"
#include "yaml/document.hpp"
#include "yaml/split.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace opm::catalog {

namespace {

// How far upstream looks for the '{' that makes a file a JSON stream.
constexpr std::size_t k_json_peek = 4096;

// Byte offsets to 1-based line and column, for offsets that mostly move forward.
class Lines {
public:
  explicit Lines(std::string_view text) : m_text(text) {}

  std::size_t line_of(std::size_t offset) {
    advance(offset);
    return m_line;
  }
  std::size_t column_of(std::size_t offset) {
    advance(offset);
    return offset - m_line_start + 1;
  }

private:
  void advance(std::size_t offset) {
    offset = std::min(offset, m_text.size());
    if (offset < m_offset) {
      m_offset = 0;
      m_line = 1;
      m_line_start = 0;
    }
    while (m_offset < offset) {
      const void* nl = std::memchr(m_text.data() + m_offset, '\n', offset - m_offset);
      if (nl == nullptr) {
        m_offset = offset;
        break;
      }
      m_offset = static_cast<std::size_t>(static_cast<const char*>(nl) - m_text.data()) + 1;
      m_line_start = m_offset;
      ++m_line;
    }
  }

  std::string_view m_text;
  std::size_t m_offset = 0;
  std::size_t m_line = 1;
  std::size_t m_line_start = 0;
};

class StreamDecoder {
public:
  StreamDecoder(std::string_view text, std::string_view name, const DocumentSink& take,
                bool any_value = false)
      : m_text(text), m_name(name), m_lines(text), m_any_value(any_value), m_take(take) {}

  // The decoding error that ended the stream early, if one did.
  std::optional<Error> run() {
    if (looks_like_json(m_text, k_json_peek)) {
      read_json();
    } else {
      read_yaml(0, std::nullopt);
    }
    return std::move(m_error);
  }

private:
  Error error_at(std::string message, std::size_t line, std::size_t column = 0) const {
    return Error(Errc::invalid, std::move(message), Location{std::string(m_name), line, column});
  }
  Error error_at_offset(std::string message, std::size_t offset) {
    std::size_t line = m_lines.line_of(offset);
    return error_at(std::move(message), line, m_lines.column_of(offset));
  }
  void stop(Error error) { m_error = std::move(error); }
  // A decoded document, handed on; `integers_before` is json::decoded_integers() before it was
  // decoded. False when the taker wants no more.
  bool add(Json&& value, std::size_t line, std::uint64_t integers_before) {
    return m_take(Document{std::move(value), line, json::decoded_integers() != integers_before});
  }

  // apimachinery's YAMLOrJSONDecoder in JSON mode: values until the end, or a failure that
  // sends the rest to the YAML reader while fewer than two values have been read.
  void read_json();
  // The rest of the stream from `pos` as YAML. `json_error` is the JSON failure that led
  // here: the first YAML document reports it instead of its own problem.
  void read_yaml(std::size_t pos, std::optional<Error> json_error);
  // The YAML reader starts after the space (up to one line break) following the last JSON
  // value, reading four bytes at a time: nullopt where it gives up.
  std::optional<std::size_t> skip_space_after_json(std::size_t pos) const;

  std::string_view m_text;
  std::string_view m_name;
  Lines m_lines;
  bool m_any_value; // documents need not be objects (a json.RawMessage target)
  const DocumentSink& m_take;
  std::optional<Error> m_error;
};

void StreamDecoder::read_json() {
  std::size_t pos = 0;
  std::size_t count = 0;
  while (true) {
    const std::uint64_t integers_before = json::decoded_integers();
    json::StreamValue read = json::read_stream_value(m_text, pos);
    using Status = json::StreamValue::Status;
    std::string message;       // the error as the JSON decoder reports it
    std::string first_message; // as reported while the stream may still be YAML
    std::size_t error_offset = pos;
    switch (read.status) {
    case Status::end:
      return;
    case Status::value: {
      std::string_view blob = m_text.substr(read.begin, read.end - read.begin);
      if (m_any_value) {
        if (!add(std::move(read.value), m_lines.line_of(read.begin), integers_before)) {
          return;
        }
        ++count;
        pos = read.end;
        continue;
      }
      if (read.value.is_null()) {
        // Decodes fine into an empty envelope that has no schema.
        stop(error_at_offset("object 'null\n' is missing root schema field", read.begin));
        return;
      }
      if (auto type_error = json::map_type_error(read.value, blob)) {
        message = std::move(*type_error);
      } else if (read.overflow_number) {
        message = json::overflow_error(blob, *read.overflow_number, read.overflow_offset);
      } else {
        if (!add(std::move(read.value), m_lines.line_of(read.begin), integers_before)) {
          return;
        }
        ++count;
        pos = read.end;
        continue;
      }
      first_message = message;
      error_offset = read.begin;
      break;
    }
    case Status::syntax_error:
      message = read.message;
      first_message = "json: offset " + std::to_string(read.offset) + ": " + read.message;
      error_offset = read.offset - 1;
      break;
    case Status::unexpected_eof:
      message = first_message = "unexpected EOF";
      error_offset = m_text.size();
      break;
    }
    if (count > 1) {
      stop(error_at_offset(std::move(message), error_offset));
      return;
    }
    Error first = error_at_offset(std::move(first_message), error_offset);
    auto yaml_start = skip_space_after_json(pos);
    if (!yaml_start) {
      stop(std::move(first));
      return;
    }
    read_yaml(*yaml_start, std::move(first));
    return;
  }
}

std::optional<std::size_t> StreamDecoder::skip_space_after_json(std::size_t pos) const {
  while (true) {
    if (m_text.size() - pos < 4) {
      return std::nullopt;
    }
    std::string_view window = m_text.substr(pos, 4);
    std::size_t size = 0;
    bool valid = true;
    char32_t c = util::decode_utf8(window, size, &valid);
    if (!valid || c == 0xFFFD) {
      return std::nullopt;
    }
    if (!util::go_is_space(c)) {
      return pos;
    }
    pos += size;
    if (c == '\n') {
      return pos;
    }
  }
}

void StreamDecoder::read_yaml(std::size_t pos, std::optional<Error> json_error) {
  std::size_t first_line = m_lines.line_of(pos);
  std::size_t first_column = m_lines.column_of(pos) - 1; // bytes before `pos` on its line
  yaml::Splitter splitter(m_text, pos, first_line);
  while (true) {
    auto next = splitter.next();
    if (!next) {
      stop(json_error ? std::move(*json_error) : error_at(next.error().message, next.error().line));
      return;
    }
    if (!*next) {
      return;
    }
    const yaml::Chunk& chunk = **next;
    std::string copy;
    std::string_view body = m_text.substr(chunk.begin, chunk.end - chunk.begin);
    bool append_newline = chunk.unterminated;
    if (chunk.crlf) {
      copy = chunk.text(m_text);
      body = copy;
      append_newline = false;
    }
    bool may_be_deep = true;
    const std::uint64_t integers_before = json::decoded_integers();
    auto converted = yaml::document_to_json(body, append_newline, chunk.longest_line, &may_be_deep,
                                            yaml::Rest::reject);
    if (!converted) {
      if (json_error) {
        stop(std::move(*json_error));
        return;
      }
      const yaml::DocumentError& e = converted.error();
      std::size_t line = chunk.line;
      std::size_t column = 0;
      if (e.located) {
        line += e.line;
        column = e.column + 1 + (chunk.begin == pos && e.line == 0 ? first_column : 0);
      }
      stop(error_at("error converting YAML to JSON: " + e.message, line, column));
      return;
    }
    Json& value = *converted;
    if (auto open = may_be_deep ? json::too_deep(value) : std::nullopt) {
      if (json_error) {
        stop(std::move(*json_error));
        return;
      }
      stop(error_at(
          std::string("error unmarshaling JSON: while decoding JSON: invalid character '") + *open +
              "' exceeded max depth",
          chunk.line));
      return;
    }
    if (value.is_null() && !m_any_value) {
      // Decodes fine into an empty envelope that has no schema.
      stop(error_at("object '' is missing root schema field", chunk.line));
      return;
    }
    if (!value.is_object() && !m_any_value) {
      if (json_error) {
        stop(std::move(*json_error));
        return;
      }
      auto type_error = json::map_type_error(value, json::marshal(value));
      stop(error_at("error unmarshaling JSON: while decoding JSON: " + type_error.value_or(""),
                    chunk.line));
      return;
    }
    if (!add(std::move(value), chunk.line, integers_before)) {
      return;
    }
    json_error.reset();
  }
}

DecodedStream collected(std::string_view text, std::string_view name, bool any_value) {
  DecodedStream out;
  const DocumentSink keep = [&out](Document&& doc) {
    out.documents.push_back(std::move(doc));
    return true;
  };
  out.error = StreamDecoder(text, name, keep, any_value).run();
  return out;
}

} // namespace

std::optional<Error> decode_stream_each(std::string_view text, std::string_view name,
                                        const DocumentSink& take) {
  return StreamDecoder(text, name, take).run();
}

DecodedStream decode_stream_until_error(std::string_view text, std::string_view name) {
  return collected(text, name, false);
}

DecodedStream decode_values_until_error(std::string_view text, std::string_view name) {
  return collected(text, name, true);
}

Result<std::vector<Document>> decode_stream(std::string_view text, std::string_view name) {
  DecodedStream decoded = decode_stream_until_error(text, name);
  if (decoded.error) {
    return std::unexpected(std::move(*decoded.error));
  }
  return std::move(decoded.documents);
}

Result<Json> yaml_to_json(std::string_view text) {
  auto converted = yaml::document_to_json(text);
  if (!converted) {
    return util::fail(Errc::invalid, std::move(converted.error().message));
  }
  return std::move(*converted);
}

bool looks_like_json(std::string_view text, std::size_t peek) {
  std::string_view head = text.substr(0, std::min(text.size(), peek));
  std::size_t i = 0;
  while (i < head.size()) {
    std::size_t at = i;
    bool valid = true;
    char32_t c = util::decode_utf8(head, at, &valid);
    if (!valid || !util::go_is_space(c)) {
      break;
    }
    i = at;
  }
  return i < head.size() && head[i] == '{';
}

} // namespace opm::catalog
