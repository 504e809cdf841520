// Prints the code point ranges (>= 0x80) of Unicode letters (L*) and decimal digits (Nd)
// used by src/catalog/unicode_classes.cpp, from the ICU character database.
// Build: g++ -O2 scripts/gen_unicode_classes.cpp -o /tmp/gen -licuuc
#include <cstdio>
#include <unicode/uchar.h>
#include <utility>
#include <vector>

namespace {

void dump(const char* name, bool (*pred)(UChar32)) {
  std::vector<std::pair<UChar32, UChar32>> ranges;
  for (UChar32 c = 0x80; c <= 0x10FFFF; ++c) {
    if (!pred(c)) {
      continue;
    }
    if (!ranges.empty() && ranges.back().second == c - 1) {
      ranges.back().second = c;
    } else {
      ranges.emplace_back(c, c);
    }
  }
  std::printf("inline constexpr CodeRange %s[] = {\n", name);
  int n = 0;
  for (const auto& [first, last] : ranges) {
    std::printf("%s{0x%X, 0x%X},", n % 4 == 0 ? "    " : " ", first, last);
    if (++n % 4 == 0) {
      std::printf("\n");
    }
  }
  std::printf("\n};\n");
}

bool is_letter(UChar32 c) {
  const int t = u_charType(c);
  return t == U_UPPERCASE_LETTER || t == U_LOWERCASE_LETTER || t == U_TITLECASE_LETTER ||
         t == U_MODIFIER_LETTER || t == U_OTHER_LETTER;
}

bool is_digit(UChar32 c) { return u_charType(c) == U_DECIMAL_DIGIT_NUMBER; }

} // namespace

int main() {
  std::printf("// Unicode %s\n", U_UNICODE_VERSION);
  dump("k_letter_ranges", is_letter);
  dump("k_digit_ranges", is_digit);
}
