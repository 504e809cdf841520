#include "util/csv.hpp"

#include "util/strings.hpp"

#include <fmt/format.h>

namespace opm::util {

namespace {

constexpr std::string_view k_bare_quote = "bare \" in non-quoted-field";
constexpr std::string_view k_quote = "extraneous or missing \" in quoted-field";

// Splits the input into lines as Go's csv readLine does: each line keeps its "\n";
// "\r\n" becomes "\n"; a final "\r" before end of input is dropped.
class LineReader {
public:
  explicit LineReader(std::string_view text) : m_rest(text) {}

  // False at end of input.
  bool next(std::string& line) {
    if (m_rest.empty()) {
      return false;
    }
    auto nl = m_rest.find('\n');
    std::size_t len = nl == std::string_view::npos ? m_rest.size() : nl + 1;
    line.assign(m_rest.substr(0, len));
    m_rest.remove_prefix(len);
    ++m_number;
    if (nl == std::string_view::npos && !line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    if (line.size() >= 2 && line[line.size() - 2] == '\r' && line.back() == '\n') {
      line.erase(line.size() - 2, 1);
    }
    return true;
  }

  [[nodiscard]] std::size_t number() const { return m_number; }

private:
  std::string_view m_rest;
  std::size_t m_number = 0;
};

std::size_t newline_length(std::string_view s) { return !s.empty() && s.back() == '\n' ? 1 : 0; }

std::unexpected<Error> parse_error(std::size_t start_line, std::size_t line, std::size_t column,
                                   std::string_view what) {
  if (start_line != line) {
    return fail(Errc::invalid,
                fmt::format("record on line {}; parse error on line {}, column {}: {}", start_line,
                            line, column, what));
  }
  return fail(Errc::invalid,
              fmt::format("parse error on line {}, column {}: {}", line, column, what));
}

} // namespace

Result<std::vector<std::string>> read_csv_record(std::string_view text) {
  LineReader reader(text);
  std::string storage;
  bool have_line = false;
  while (reader.next(storage)) {
    if (storage.size() == newline_length(storage)) {
      continue; // blank line
    }
    have_line = true;
    break;
  }
  if (!have_line) {
    return fail(Errc::invalid, "EOF");
  }

  std::vector<std::string> fields;
  std::string_view line = storage;
  std::size_t record_line = reader.number();
  std::size_t pos_line = reader.number();
  std::size_t col = 1;
  for (;;) {
    if (line.empty() || line[0] != '"') {
      auto comma = line.find(',');
      std::string_view field = comma == std::string_view::npos
                                   ? line.substr(0, line.size() - newline_length(line))
                                   : line.substr(0, comma);
      if (auto q = field.find('"'); q != std::string_view::npos) {
        return parse_error(record_line, reader.number(), col + q, k_bare_quote);
      }
      fields.emplace_back(field);
      if (comma == std::string_view::npos) {
        return fields;
      }
      line.remove_prefix(comma + 1);
      col += comma + 1;
      continue;
    }
    // Quoted field, possibly spanning lines.
    std::string field;
    line.remove_prefix(1);
    col += 1;
    for (;;) {
      auto q = line.find('"');
      if (q != std::string_view::npos) {
        field.append(line.substr(0, q));
        line.remove_prefix(q + 1);
        col += q + 1;
        if (!line.empty() && line[0] == '"') {
          field += '"';
          line.remove_prefix(1);
          col += 1;
        } else if (!line.empty() && line[0] == ',') {
          line.remove_prefix(1);
          col += 1;
          fields.push_back(std::move(field));
          break;
        } else if (newline_length(line) == line.size()) {
          fields.push_back(std::move(field));
          return fields;
        } else {
          return parse_error(record_line, reader.number(), col - 1, k_quote);
        }
      } else if (!line.empty()) {
        field.append(line);
        col += line.size();
        if (reader.next(storage)) {
          line = storage;
          ++pos_line;
          col = 1;
        } else {
          line = {};
        }
      } else {
        return parse_error(record_line, pos_line, col, k_quote);
      }
    }
  }
}

} // namespace opm::util
