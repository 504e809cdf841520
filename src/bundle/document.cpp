#include "bundle/document.hpp"

#include "catalog/decode.hpp"
#include "json/text.hpp"
#include "util/strings.hpp"

namespace opm::bundle {

namespace {

constexpr std::size_t k_sniff_bytes = 30;

bool looks_like_json(std::string_view content) {
  return catalog::looks_like_json(content, k_sniff_bytes);
}

// After a failed JSON attempt the decoder drops leading whitespace up to and including the
// first newline before reading YAML; invalid UTF-8 or only whitespace ends the attempt.
std::optional<std::size_t> whitespace_to_drop(std::string_view content) {
  std::size_t i = 0;
  while (i < content.size()) {
    std::size_t start = i;
    bool valid = true;
    char32_t r = util::decode_utf8(content, i, &valid);
    if (!valid) {
      return std::nullopt;
    }
    if (!util::go_is_space(r)) {
      return start;
    }
    if (r == '\n') {
      return i;
    }
  }
  return std::nullopt;
}

// The first document of a YAML stream as Kubernetes' YAMLReader splits it: lines starting
// with "---" separate documents and may only be followed by spaces or a comment.
Result<std::string> first_yaml_document(std::string_view content) {
  std::string doc;
  std::size_t pos = 0;
  while (pos < content.size()) {
    std::size_t nl = content.find('\n', pos);
    std::string_view line =
        content.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? content.size() : nl + 1;
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    if (line.starts_with("---")) {
      std::string_view rest = util::trim(line.substr(3));
      if (!rest.empty() && rest.front() != '#') {
        return util::fail(Errc::invalid, "invalid Yaml document separator: " + std::string(rest));
      }
      if (!doc.empty()) {
        return doc;
      }
      continue;
    }
    doc.append(line);
    doc += '\n';
  }
  if (doc.empty()) {
    return util::fail(Errc::invalid, "EOF");
  }
  return doc;
}

} // namespace

std::optional<FirstDocument> read_json_document(std::string_view content) {
  if (!looks_like_json(content)) {
    return std::nullopt;
  }
  std::size_t start = json::text::skip_space(content, 0);
  auto end = json::text::value_end(content, start);
  if (!end) {
    return std::nullopt;
  }
  std::string_view text = content.substr(start, *end - start);
  auto value = json::text::parse(text);
  if (!value) {
    return std::nullopt;
  }
  return FirstDocument{std::move(*value), Syntax::json, text};
}

Result<FirstDocument> read_yaml_document(std::string_view content, bool after_json) {
  if (after_json || looks_like_json(content)) {
    auto drop = whitespace_to_drop(content);
    if (!drop) {
      return util::fail(Errc::invalid, "decoding failed as both JSON and YAML");
    }
    content.remove_prefix(*drop);
  }
  auto doc = OPM_TRY(first_yaml_document(content));
  auto value = OPM_TRY(catalog::yaml_to_json(doc));
  return FirstDocument{std::move(value), Syntax::yaml, {}};
}

Result<FirstDocument> read_first_document(std::string_view content) {
  if (auto json = read_json_document(content)) {
    return std::move(*json);
  }
  return read_yaml_document(content, false);
}

} // namespace opm::bundle
