#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opm::util {

// Go's strconv.Quote / fmt "%q": double quotes, \a \b \f \n \r \t \v \\ \" escapes,
// \xNN for invalid UTF-8 and ASCII controls, \uXXXX / \UXXXXXXXX for other
// non-printable characters; printable non-ASCII stays raw.
std::string go_quote(std::string_view s);

// Which string literal grammar an escape belongs to: Go source (strconv.Unquote) adds \a and
// \v, JSON adds \/.
enum class Escapes { go, json };

// The byte a one-letter escape (\b \f \n \r \t \\ \" and the grammar's own) stands
// for; nullopt for any other letter.
std::optional<char> simple_escape(char letter, Escapes grammar);

// The value of a hexadecimal digit, or -1.
int hex_digit_value(char c);

// strconv.Unquote of a double-quoted Go literal, `quoted` including its quotes: the simple
// escapes, \xNN bytes, \uNNNN and \UNNNNNNNN code points. nullopt when it is not valid.
std::optional<std::string> go_unquote(std::string_view quoted);

// Decode one UTF-8 code point at s[i]; advances i. Invalid bytes yield 0xFFFD and width 1.
char32_t decode_utf8(std::string_view s, std::size_t& i, bool* valid = nullptr);
void append_utf8(std::string& out, char32_t cp);
// Number of code points (invalid bytes count one each).
std::size_t utf8_length(std::string_view s);

std::vector<std::string> split(std::string_view s, char sep);
// Go's strings.Split, the parts viewing `s` (an empty input gives one empty part).
std::vector<std::string_view> split_view(std::string_view s, char sep);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
bool is_space(unsigned char c);
constexpr bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }
// Go's unicode.IsSpace.
bool go_is_space(char32_t c);
// ASCII case-insensitive equality (Go json field matching for ASCII names); the second for
// strings of the same size.
bool equal_fold_same_size(std::string_view a, std::string_view b);
inline bool equal_fold(std::string_view a, std::string_view b) {
  // Most names compared differ in size or in their first letter: that answer is given without
  // a call. Bytes that differ in more than the case bit differ in either case.
  if (a.size() != b.size()) {
    return false;
  }
  return a.empty() ||
         (((static_cast<unsigned char>(a[0]) ^ static_cast<unsigned char>(b[0])) & ~0x20U) == 0 &&
          equal_fold_same_size(a, b));
}
std::string ascii_lower(std::string_view s);
std::string_view trim(std::string_view s);

} // namespace opm::util
