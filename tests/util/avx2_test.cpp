#include "util/avx2.hpp"
#include "util/swar.hpp"

#include <doctest/doctest.h>

#include <string>
#include <string_view>

using opm::util::avx2_enabled;
using opm::util::PlainStops;
using opm::util::set_avx2_enabled;
using opm::util::skip_plain_blocks;

namespace {

bool plain(unsigned char c, std::string_view stops) {
  return c >= 0x20 && c < 0x80 && stops.find(static_cast<char>(c)) == std::string_view::npos;
}

// Where the first byte that is not plain is: skip_plain_blocks, then one byte at a time.
std::string_view stop_bytes(PlainStops stops) {
  switch (stops) {
  case PlainStops::json_string:
    return "\"\\";
  case PlainStops::json_string_html:
    return "\"\\<>&";
  case PlainStops::printable:
    return "\x7F";
  }
  return "";
}

std::size_t first_stop(std::string_view text, std::size_t from, PlainStops kind) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  std::string_view stops = stop_bytes(kind);
  std::size_t at = skip_plain_blocks(p, from, text.size(), kind);
  while (at < text.size() && plain(p[at], stops)) {
    ++at;
  }
  return at;
}

std::size_t first_stop_one_at_a_time(std::string_view text, std::size_t from, PlainStops kind) {
  std::string_view stops = stop_bytes(kind);
  while (from < text.size() && plain(static_cast<unsigned char>(text[from]), stops)) {
    ++from;
  }
  return from;
}

} // namespace

TEST_SUITE("avx2") {
  TEST_CASE("whole blocks of plain bytes are skipped, and a shorter rest is left") {
    std::string text(100, 'a');
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    set_avx2_enabled(false);
    CHECK(skip_plain_blocks(p, 3, text.size(), PlainStops::json_string) == 3);
    set_avx2_enabled(true);
    if (avx2_enabled()) {
      CHECK(skip_plain_blocks(p, 3, text.size(), PlainStops::json_string) == 99);
      CHECK(skip_plain_blocks(p, 70, text.size(), PlainStops::json_string) == 70);
    }
  }

  TEST_CASE("every byte that is not plain is found in every position") {
    for (PlainStops stops :
         {PlainStops::json_string, PlainStops::json_string_html, PlainStops::printable}) {
      for (std::size_t at = 0; at < 80; at += 7) {
        for (int byte = 0; byte < 256; ++byte) {
          std::string text(96, 'x');
          text[at] = static_cast<char>(byte);
          text[at / 2 + 40] = ' ';
          INFO("byte ", byte, " at ", at, " stops '", stop_bytes(stops), "'");
          CHECK(first_stop(text, 1, stops) == first_stop_one_at_a_time(text, 1, stops));
        }
      }
    }
  }
}

TEST_CASE("leading_spaces counts the spaces a line starts with, eight bytes at a time") {
  using opm::util::swar::leading_spaces;
  CHECK(leading_spaces("") == 0);
  CHECK(leading_spaces("x") == 0);
  CHECK(leading_spaces("   ") == 3);
  CHECK(leading_spaces("        ") == 8);
  CHECK(leading_spaces("\t  x") == 0);
  for (std::size_t spaces = 0; spaces < 40; ++spaces) {
    for (std::string_view rest : {"", "x", "- item", "\tkey: value", "#", "\xc2\xa0"}) {
      const std::string line = std::string(spaces, ' ') + std::string(rest);
      INFO(spaces, " spaces then \"", rest, "\"");
      CHECK(leading_spaces(line) == spaces);
    }
  }
}
