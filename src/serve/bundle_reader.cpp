#include "serve/bundle_reader.hpp"

#include "util/strings.hpp"

#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <string>

namespace opm::serve {

namespace {

constexpr std::size_t k_max_depth = 10000;

class Reader {
public:
  explicit Reader(std::string_view text) : m_text(text) {}

  bool at_end() {
    skip_space();
    return m_pos == m_text.size();
  }

  // Calls on_member(key) for each member; on_member reads the value and returns false on
  // malformed input.
  template <typename OnMember> bool object(OnMember&& on_member) {
    if (!consume('{')) {
      return false;
    }
    if (consume('}')) {
      return true;
    }
    std::string key;
    do {
      key.clear();
      if (!string(key) || !consume(':') || !on_member(std::string_view(key))) {
        return false;
      }
    } while (consume(','));
    return consume('}');
  }

  template <typename OnElement> bool array(OnElement&& on_element) {
    if (!consume('[')) {
      return false;
    }
    if (consume(']')) {
      return true;
    }
    do {
      if (!on_element()) {
        return false;
      }
    } while (consume(','));
    return consume(']');
  }

  bool next_is(char c) {
    skip_space();
    return m_pos < m_text.size() && m_text[m_pos] == c;
  }

  // Appends the decoded string to `out`.
  bool string(std::string& out) {
    if (!consume('"')) {
      return false;
    }
    while (m_pos < m_text.size()) {
      std::size_t run = plain_run();
      out.append(m_text.data() + m_pos, run);
      m_pos += run;
      if (m_pos == m_text.size()) {
        return false;
      }
      char c = m_text[m_pos++];
      if (c == '"') {
        return true;
      }
      if (c != '\\' || !escape(out)) {
        return false; // a control character or a bad escape
      }
    }
    return false;
  }

  // A string member value into `out` (replaced); any other value is skipped and leaves it
  // empty.
  bool string_or_skip(std::string& out) {
    out.clear();
    return next_is('"') ? string(out) : skip_value();
  }

  bool skip_value(std::size_t depth = 0) {
    skip_space();
    if (m_pos == m_text.size() || depth > k_max_depth) {
      return false;
    }
    switch (m_text[m_pos]) {
    case '"': {
      std::string ignored;
      return string(ignored);
    }
    case '{':
      return object([&](std::string_view) { return skip_value(depth + 1); });
    case '[':
      return array([&] { return skip_value(depth + 1); });
    case 't':
      return literal("true");
    case 'f':
      return literal("false");
    case 'n':
      return literal("null");
    default:
      return number();
    }
  }

private:
  void skip_space() {
    while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' ||
                                     m_text[m_pos] == '\r' || m_text[m_pos] == '\t')) {
      ++m_pos;
    }
  }

  bool consume(char c) {
    if (!next_is(c)) {
      return false;
    }
    ++m_pos;
    return true;
  }

  // Bytes from m_pos up to the next quote, backslash or control character: 16 at a time
  // where SSE2 is there (the manifests are long runs of plain bytes).
  std::size_t plain_run() const {
    const char* begin = m_text.data() + m_pos;
    const char* end = m_text.data() + m_text.size();
    const char* p = begin;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i last_control = _mm_set1_epi8(0x1f);
    while (end - p >= 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, last_control), v);
      __m128i special = _mm_or_si128(
          _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), control);
      if (int mask = _mm_movemask_epi8(special); mask != 0) {
        return static_cast<std::size_t>(p - begin) + static_cast<std::size_t>(__builtin_ctz(mask));
      }
      p += 16;
    }
#endif
    while (p != end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) {
      ++p;
    }
    return static_cast<std::size_t>(p - begin);
  }

  bool literal(std::string_view word) {
    if (m_text.substr(m_pos, word.size()) != word) {
      return false;
    }
    m_pos += word.size();
    return true;
  }

  bool number() {
    std::size_t start = m_pos;
    while (m_pos < m_text.size() && std::strchr("+-.0123456789eE", m_text[m_pos]) != nullptr &&
           m_text[m_pos] != '\0') {
      ++m_pos;
    }
    return m_pos != start;
  }

  bool hex4(char32_t& out) {
    if (m_pos + 4 > m_text.size()) {
      return false;
    }
    out = 0;
    for (int i = 0; i < 4; ++i) {
      char c = m_text[m_pos++];
      int digit = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
      if (digit < 0) {
        return false;
      }
      out = out * 16 + static_cast<char32_t>(digit);
    }
    return true;
  }

  // \uXXXX, with a surrogate pair joined; a lone surrogate becomes U+FFFD as in Go.
  bool unicode_escape(std::string& out) {
    char32_t cp = 0;
    if (!hex4(cp)) {
      return false;
    }
    if (cp >= 0xD800 && cp < 0xDC00 && m_text.substr(m_pos, 2) == "\\u") {
      std::size_t save = m_pos;
      m_pos += 2;
      char32_t low = 0;
      if (!hex4(low)) {
        return false;
      }
      if (low >= 0xDC00 && low < 0xE000) {
        util::append_utf8(out, 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00));
        return true;
      }
      m_pos = save;
    }
    util::append_utf8(out, cp >= 0xD800 && cp < 0xE000 ? char32_t{0xFFFD} : cp);
    return true;
  }

  bool escape(std::string& out) {
    if (m_pos == m_text.size()) {
      return false;
    }
    char c = m_text[m_pos++];
    switch (c) {
    case '"':
    case '\\':
    case '/':
      out.push_back(c);
      return true;
    case 'b':
      out.push_back('\b');
      return true;
    case 'f':
      out.push_back('\f');
      return true;
    case 'n':
      out.push_back('\n');
      return true;
    case 'r':
      out.push_back('\r');
      return true;
    case 't':
      out.push_back('\t');
      return true;
    case 'u':
      return unicode_escape(out);
    default:
      return false;
    }
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
};

bool read_strings(Reader& r, google::protobuf::RepeatedPtrField<std::string>& out) {
  out.Clear();
  if (!r.next_is('[')) {
    return r.skip_value();
  }
  return r.array([&] { return r.string_or_skip(*out.Add()); });
}

bool read_gvks(Reader& r, google::protobuf::RepeatedPtrField<api::GroupVersionKind>& out) {
  out.Clear();
  if (!r.next_is('[')) {
    return r.skip_value();
  }
  return r.array([&] {
    auto* gvk = out.Add();
    if (!r.next_is('{')) {
      return r.skip_value();
    }
    return r.object([&](std::string_view key) {
      std::string* field = key == "group"     ? gvk->mutable_group()
                           : key == "version" ? gvk->mutable_version()
                           : key == "kind"    ? gvk->mutable_kind()
                           : key == "plural"  ? gvk->mutable_plural()
                                              : nullptr;
      return field != nullptr ? r.string_or_skip(*field) : r.skip_value();
    });
  });
}

// dependencies and properties: [{"type": ..., "value": ...}]
template <typename Pair> bool read_pairs(Reader& r, google::protobuf::RepeatedPtrField<Pair>& out) {
  out.Clear();
  if (!r.next_is('[')) {
    return r.skip_value();
  }
  return r.array([&] {
    auto* pair = out.Add();
    if (!r.next_is('{')) {
      return r.skip_value();
    }
    return r.object([&](std::string_view key) {
      std::string* field = key == "type"    ? pair->mutable_type()
                           : key == "value" ? pair->mutable_value()
                                            : nullptr;
      return field != nullptr ? r.string_or_skip(*field) : r.skip_value();
    });
  });
}

bool read_deprecation(Reader& r, api::Bundle& out) {
  out.clear_deprecation();
  if (!r.next_is('{')) {
    return r.skip_value();
  }
  api::Deprecation* deprecation = out.mutable_deprecation();
  return r.object([&](std::string_view key) {
    return key == "message" ? r.string_or_skip(*deprecation->mutable_message()) : r.skip_value();
  });
}

std::string* string_field(api::Bundle& b, std::string_view key) {
  if (key == "csvName") {
    return b.mutable_csvname();
  }
  if (key == "packageName") {
    return b.mutable_packagename();
  }
  if (key == "channelName") {
    return b.mutable_channelname();
  }
  if (key == "csvJson") {
    return b.mutable_csvjson();
  }
  if (key == "bundlePath") {
    return b.mutable_bundlepath();
  }
  if (key == "version") {
    return b.mutable_version();
  }
  if (key == "skipRange") {
    return b.mutable_skiprange();
  }
  if (key == "replaces") {
    return b.mutable_replaces();
  }
  return nullptr;
}

bool read_member(Reader& r, std::string_view key, api::Bundle& b) {
  if (std::string* field = string_field(b, key)) {
    return r.string_or_skip(*field);
  }
  if (key == "object") {
    return read_strings(r, *b.mutable_object());
  }
  if (key == "skips") {
    return read_strings(r, *b.mutable_skips());
  }
  if (key == "providedApis") {
    return read_gvks(r, *b.mutable_providedapis());
  }
  if (key == "requiredApis") {
    return read_gvks(r, *b.mutable_requiredapis());
  }
  if (key == "dependencies") {
    return read_pairs(r, *b.mutable_dependencies());
  }
  if (key == "properties") {
    return read_pairs(r, *b.mutable_properties());
  }
  if (key == "deprecation") {
    return read_deprecation(r, b);
  }
  return r.skip_value();
}

} // namespace

Result<api::Bundle> read_bundle_json(std::string_view text) {
  Reader r(text);
  api::Bundle out;
  bool ok = r.next_is('{') &&
            r.object([&](std::string_view key) { return read_member(r, key, out); }) && r.at_end();
  if (!ok) {
    return util::fail(Errc::invalid, "invalid character in cached bundle");
  }
  return out;
}

} // namespace opm::serve
