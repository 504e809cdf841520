#include "yaml/split.hpp"

#include "util/avx2.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <cstring>

namespace opm::yaml {

namespace {

// Go's strings.TrimSpace.
std::string_view go_trim_space(std::string_view s) {
  std::size_t begin = 0;
  while (begin < s.size()) {
    std::size_t at = begin;
    bool valid = true;
    char32_t c = util::decode_utf8(s, at, &valid);
    if (!valid || !util::go_is_space(c)) {
      break;
    }
    begin = at;
  }
  std::size_t end = begin;
  for (std::size_t i = begin; i < s.size();) {
    bool valid = true;
    char32_t c = util::decode_utf8(s, i, &valid);
    if (!valid || !util::go_is_space(c)) {
      end = i;
    }
  }
  return s.substr(begin, end - begin);
}

} // namespace

std::string Chunk::text(std::string_view stream) const {
  std::string_view body = stream.substr(begin, end - begin);
  std::string out;
  out.reserve(body.size() + 1);
  if (crlf) {
    std::size_t start = 0;
    while (true) {
      auto nl = body.find('\n', start);
      if (nl == std::string_view::npos) {
        out.append(body.substr(start));
        break;
      }
      std::size_t content_end = (nl > start && body[nl - 1] == '\r') ? nl - 1 : nl;
      out.append(body.substr(start, content_end - start));
      out += '\n';
      start = nl + 1;
    }
  } else {
    out.append(body);
  }
  if (unterminated) {
    out += '\n';
  }
  return out;
}

std::expected<std::optional<Chunk>, SplitError> Splitter::next() {
  std::optional<Chunk> chunk;
  const char* data = m_stream.data();
  while (m_pos < m_stream.size()) {
    std::size_t line_begin = m_pos;
    const void* found = std::memchr(data + m_pos, '\n', m_stream.size() - m_pos);
    std::size_t content_end = m_stream.size();
    std::size_t next = m_stream.size();
    bool crlf = false;
    if (found != nullptr) {
      std::size_t nl = static_cast<std::size_t>(static_cast<const char*>(found) - data);
      next = nl + 1;
      content_end = nl;
      if (nl > line_begin && data[nl - 1] == '\r') {
        content_end = nl - 1;
        crlf = true;
      }
    }
    std::string_view content = m_stream.substr(line_begin, content_end - line_begin);
    if (content.starts_with("---")) {
      std::string_view rest = go_trim_space(content.substr(3));
      if (!rest.empty() && rest.front() != '#') {
        return std::unexpected(
            SplitError{"invalid Yaml document separator: " + std::string(rest), m_line});
      }
      if (chunk) {
        m_pos = next;
        ++m_line;
        return chunk;
      }
    }
    if (!chunk) {
      chunk = Chunk{line_begin, line_begin, m_line, false, false, 0};
    }
    chunk->end = next;
    chunk->crlf = chunk->crlf || crlf;
    chunk->unterminated = found == nullptr;
    chunk->longest_line = std::max(chunk->longest_line, content.size());
    m_pos = next;
    ++m_line;
    // The lines up to the next one starting with "---", many at a time.
    if (!m_stream.substr(m_pos).starts_with("---")) {
      const util::LineRun run =
          util::take_lines(reinterpret_cast<const unsigned char*>(data), m_pos, m_stream.size());
      if (run.lines != 0) {
        chunk->end = run.end;
        chunk->crlf = chunk->crlf || run.crlf;
        chunk->longest_line = std::max(chunk->longest_line, run.longest);
        m_pos = run.end;
        m_line += run.lines;
      }
    }
  }
  return chunk;
}

} // namespace opm::yaml
