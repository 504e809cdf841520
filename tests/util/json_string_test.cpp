#include "util/avx2.hpp"
#include "util/go_format.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <string>

namespace {

std::string g(double v) {
  std::string out;
  opm::util::append_float_g(out, v);
  return out;
}

std::string json_quoted(std::string_view s, bool html = true) {
  std::string out;
  opm::util::append_json_string(out, s, html);
  return out;
}

std::string json(double v) {
  std::string out;
  opm::util::append_json_float(out, v);
  return out;
}

} // namespace

TEST_SUITE("util Go text formatting") {
  TEST_CASE("formats %g with the shortest digits") {
    CHECK(g(0) == "0");
    CHECK(g(-0.0) == "-0");
    CHECK(g(1) == "1");
    CHECK(g(0.1) == "0.1");
    CHECK(g(0.0001) == "0.0001");
    CHECK(g(0.00001) == "1e-05");
    CHECK(g(123456) == "123456");
    CHECK(g(1234567) == "1.234567e+06");
    CHECK(g(1e100) == "1e+100");
    CHECK(g(-1.5e-300) == "-1.5e-300");
    CHECK(g(std::numeric_limits<double>::infinity()) == "+Inf");
  }

  TEST_CASE("formats JSON numbers without exponents between 1e-6 and 1e21") {
    CHECK(json(0) == "0");
    CHECK(json(123456789) == "123456789");
    CHECK(json(0.000123) == "0.000123");
    CHECK(json(9.99e20) == "999000000000000000000");
    CHECK(json(1e21) == "1e+21");
    CHECK(json(9e-7) == "9e-7");
    CHECK(json(1.25e-12) == "1.25e-12");
    CHECK(json(2e-308) == "2e-308");
  }

  TEST_CASE("strings are escaped as Go's encoder escapes them") {
    CHECK(json_quoted("") == R"("")");
    CHECK(json_quoted("plain text") == R"("plain text")");
    CHECK(json_quoted("a\"b\\c") == R"("a\"b\\c")");
    CHECK(json_quoted("\b\f\n\r\t") == R"("\b\f\n\r\t")");
    CHECK(json_quoted(std::string("\x01\x1f\x00", 3)) == R"("\u0001\u001f\u0000")");
    CHECK(json_quoted("<a & b>") == R"("\u003ca \u0026 b\u003e")");
    CHECK(json_quoted("<a & b>", false) == R"("<a & b>")");
    CHECK(json_quoted("caf\xc3\xa9 \xe2\x80\xa8 \xe2\x80\xa9") ==
          "\"caf\xc3\xa9 \\u2028 \\u2029\"");
    CHECK(json_quoted("bad \xff byte") == R"("bad \ufffd byte")");
    CHECK(json_quoted("\x7f") == "\"\x7f\"");
  }

  TEST_CASE("long strings, short ones and both AVX2 and portable forms escape alike") {
    const std::string piece = "line \"one\"\n\tx<y>&z caf\xc3\xa9 \xe2\x80\xa8 \xff \x01 end. ";
    const std::string one = json_quoted(piece);
    const std::string inner = one.substr(1, one.size() - 2);
    for (std::size_t times : {1UL, 10UL, 100UL, 1000UL}) {
      std::string text;
      std::string expected = "\"";
      for (std::size_t i = 0; i < times; ++i) {
        text += piece;
        expected += inner;
      }
      expected += '"';
      INFO("times ", times, ", ", text.size(), " bytes");
      CHECK(json_quoted(text) == expected);
      opm::util::set_avx2_enabled(false);
      CHECK(json_quoted(text) == expected);
      opm::util::set_avx2_enabled(true);
    }
    // Written after what the string already holds.
    std::string out = "prefix:";
    opm::util::append_json_string(out, piece, true);
    CHECK(out == "prefix:" + one);
  }

  TEST_CASE("a character across the 16 KiB pieces of a long string is written whole") {
    // Long strings are escaped 16 KiB at a time; a multi-byte character may start just before
    // a piece ends.
    for (std::size_t before : {16382UL, 16383UL, 16384UL, 32766UL}) {
      for (std::string_view character : {"\xc3\xa9", "\xe2\x80\xa8", "\xf0\x9f\x99\x82", "\xff"}) {
        const std::string text = std::string(before, 'a') + std::string(character) + "<\"z\"";
        std::string expected = "\"" + std::string(before, 'a');
        expected += character == "\xe2\x80\xa8" ? std::string("\\u2028")
                    : character == "\xff"       ? std::string("\\ufffd")
                                                : std::string(character);
        expected += "\\u003c\\\"z\\\"\"";
        INFO(before, " bytes before a ", character.size(), "-byte character");
        CHECK(json_quoted(text) == expected);
        opm::util::set_avx2_enabled(false);
        CHECK(json_quoted(text) == expected);
        opm::util::set_avx2_enabled(true);
      }
    }
  }

  TEST_CASE("a byte that needs care is escaped at every place in a string of up to 72 bytes") {
    // Short strings and the ends of long ones are checked a few overlapping words at a time;
    // blocks of 32 bytes escape what they hold as they are copied (AVX2) or one at a time.
    struct Case {
      std::string_view byte;
      std::string_view html;
      std::string_view plain;
    };
    const Case cases[] = {
        {"\"", "\\\"", "\\\""},
        {"\\", "\\\\", "\\\\"},
        {"\n", "\\n", "\\n"},
        {"\x1f", "\\u001f", "\\u001f"},
        {"<", "\\u003c", "<"},
        {"&", "\\u0026", "&"},
        {">", "\\u003e", ">"},
        {"\x7f", "\x7f", "\x7f"},
        {"\xc3\xa9", "\xc3\xa9", "\xc3\xa9"},
        {"\xff", "\\ufffd", "\\ufffd"},
    };
    for (bool avx2 : {true, false}) {
      opm::util::set_avx2_enabled(avx2);
      for (std::size_t size = 1; size <= 72; ++size) {
        for (std::size_t at = 0; at < size; ++at) {
          for (const Case& c : cases) {
            // The special byte, and a quote 33 bytes on, in the next block.
            std::string text(size, 'a');
            text.replace(at, 1, c.byte);
            const bool second = at + 33 < text.size();
            if (second) {
              text[at + 33] = '"';
            }
            std::string expected_html = "\"" + std::string(at, 'a') + std::string(c.html);
            std::string expected_plain = "\"" + std::string(at, 'a') + std::string(c.plain);
            std::string after = text.substr(at + c.byte.size());
            if (second) {
              const std::size_t quote = at + 33 - (at + c.byte.size());
              after.replace(quote, 1, "\\\"");
            }
            INFO(size, " bytes, the special one at ", at, avx2 ? " (AVX2)" : "");
            CHECK(json_quoted(text) == expected_html + after + "\"");
            CHECK(json_quoted(text, false) == expected_plain + after + "\"");
          }
        }
        const std::string plain(size, 'z');
        CHECK(json_quoted(plain) == "\"" + plain + "\"");
      }
    }
    opm::util::set_avx2_enabled(true);
  }

  TEST_CASE("write_json_string writes into a buffer of json_string_room bytes") {
    const std::string text = "tab\there \"quoted\" <b> \x01 caf\xc3\xa9 \xe2\x80\xa9 \xfe end";
    std::string buffer(opm::util::json_string_room(text.size()), '#');
    char* end = opm::util::write_json_string(buffer.data(), text, true);
    CHECK(std::string(buffer.data(), end) == json_quoted(text));
    CHECK(std::string(buffer.data(), end) ==
          "\"tab\\there \\\"quoted\\\" \\u003cb\\u003e \\u0001 caf\xc3\xa9 \\u2029 \\ufffd end\"");
  }
}
