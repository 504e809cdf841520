#include "yaml/document.hpp"

#include "yaml/detail/block_layout.hpp"
#include "yaml/detail/converter.hpp"
#include "yaml/long_values.hpp"

#include <optional>
#include <string>

namespace opm::yaml {

namespace {

using detail::Converter;
using detail::go_yaml_message;
using detail::Rewrite;

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
  if (auto value = detail::read_block_layout(text)) {
    if (may_be_deep != nullptr) {
      *may_be_deep = false;
    }
    return std::move(*value);
  }
  return detail::events_to_json(text, append_newline, longest_line, may_be_deep, rest);
}

namespace detail {

std::expected<Json, DocumentError> events_to_json(std::string_view text, bool append_newline,
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

} // namespace detail

} // namespace opm::yaml
