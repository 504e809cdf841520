#include "util/avx2.hpp"
#include "util/base64.hpp"

#include <doctest/doctest.h>

#include <string>

using opm::util::base64_decode;
using opm::util::base64_encode;

TEST_SUITE("base64") {
  TEST_CASE("encodes with padding") {
    CHECK(base64_encode("") == "");
    CHECK(base64_encode("f") == "Zg==");
    CHECK(base64_encode("fo") == "Zm8=");
    CHECK(base64_encode("foo") == "Zm9v");
    CHECK(base64_encode("foobar") == "Zm9vYmFy");
    CHECK(base64_encode(std::string("\xff\xfe\x00", 3)) == "//4A");
  }

  TEST_CASE("decodes what it encodes") {
    for (std::string s : {"", "a", "ab", "abc", "abcd", "<svg viewBox=\"0 0 1 1\"/>"}) {
      auto d = base64_decode(base64_encode(s));
      REQUIRE(d);
      CHECK(*d == s);
    }
  }

  TEST_CASE("long text decodes whole blocks and their tails alike") {
    std::string bytes;
    for (int i = 0; i < 300; ++i) {
      bytes += static_cast<char>((i * 37 + 11) & 0xFF);
    }
    for (std::size_t size = 0; size <= bytes.size(); ++size) {
      std::string part = bytes.substr(0, size);
      auto d = base64_decode(base64_encode(part));
      REQUIRE(d);
      CHECK(*d == part);
    }
    // Every character of the alphabet, in every position of a block.
    std::string all = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int shift = 0; shift < 16; shift += 4) {
      std::string text = all.substr(shift) + all.substr(0, shift);
      auto d = base64_decode(text);
      REQUIRE(d);
      CHECK(base64_encode(*d) == text);
    }
  }

  TEST_CASE("an illegal character or line break inside a long run is found where it is") {
    std::string text(64, 'Q');
    for (std::size_t at : {0UL, 5UL, 15UL, 16UL, 33UL, 63UL}) {
      for (char bad : {'!', '-', '_', '\x80', '@', '[', '`', '{', ':', '*', '.'}) {
        std::string broken = text;
        broken[at] = bad;
        auto d = base64_decode(broken);
        REQUIRE_FALSE(d);
        CHECK(d.error().message() == "illegal base64 data at input byte " + std::to_string(at));
      }
    }
    std::string wrapped = text.substr(0, 20) + "\n" + text.substr(20);
    auto d = base64_decode(wrapped);
    REQUIRE(d);
    CHECK(*d == *base64_decode(text));
  }

  TEST_CASE("line breaks anywhere are skipped") {
    auto d = base64_decode("Zm9v\r\nYm\nFy");
    REQUIRE(d);
    CHECK(*d == "foobar");
  }

  TEST_CASE("reports Go's offset for an illegal character") {
    auto d = base64_decode("Zm9v!mFy");
    REQUIRE_FALSE(d);
    CHECK(d.error().message() == "illegal base64 data at input byte 4");
    CHECK(base64_decode("!").error().message() == "illegal base64 data at input byte 0");
  }

  TEST_CASE("padding is required") {
    CHECK(base64_decode("Zg").error().message() == "illegal base64 data at input byte 0");
    CHECK(base64_decode("Zm8").error().message() == "illegal base64 data at input byte 0");
    CHECK(base64_decode("Zm9vZ").error().message() == "illegal base64 data at input byte 4");
  }

  TEST_CASE("misplaced padding and trailing data are errors") {
    CHECK(base64_decode("Z===").error().message() == "illegal base64 data at input byte 1");
    CHECK(base64_decode("Zg=").error().message() == "illegal base64 data at input byte 3");
    CHECK(base64_decode("Zg=x").error().message() == "illegal base64 data at input byte 2");
    CHECK(base64_decode("Zg==Zg==").error().message() == "illegal base64 data at input byte 4");
  }

  TEST_CASE("standard base64 with padding, ignoring line breaks") {
    CHECK(base64_decode("aGVsbG8=").value_or("<error>") == "hello");
    CHECK(base64_decode("aGVs\nbG8=\r\n").value_or("<error>") == "hello");
    CHECK(base64_decode("aGk=").value_or("<error>") == "hi");
    CHECK(base64_decode("aA==").value_or("<error>") == "h");
    CHECK(base64_decode("").value_or("<error>") == "");
    CHECK_FALSE(base64_decode("aGVsbG8").has_value());
    CHECK_FALSE(base64_decode("aGVsbG8=x").has_value());
    CHECK_FALSE(base64_decode("aGVsbG8==").has_value());
    CHECK_FALSE(base64_decode("a===").has_value());
    CHECK_FALSE(base64_decode("aG-s").has_value());
  }

  TEST_CASE("a run of base64 alphabet characters ends at the first other byte") {
    std::string long_run(40, 'Q');
    CHECK(opm::util::base64_alphabet_run_end(long_run + "+/09azAZ=x", 0) == 48);
    CHECK(opm::util::base64_alphabet_run_end(long_run + "\n" + long_run, 0) == 40);
    CHECK(opm::util::base64_alphabet_run_end(long_run + "\n" + long_run, 41) == 81);
    CHECK(opm::util::base64_alphabet_run_end(long_run + "@[`{\xC1", 3) == 40);
    CHECK(opm::util::base64_alphabet_run_end("abc", 3) == 3);
    CHECK(opm::util::base64_alphabet_run_end("", 0) == 0);
  }

  TEST_CASE("the AVX2 and portable forms agree on every byte in every position") {
    // Where the processor has no AVX2 both runs take the portable form and agree trivially.
    const std::string all = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string text;
    for (int i = 0; i < 3; ++i) {
      text += all.substr(static_cast<std::size_t>(i) * 7) +
              all.substr(0, static_cast<std::size_t>(i) * 7);
    }
    REQUIRE(text.size() == 192);
    struct Outcome {
      std::string decoded;
      std::size_t run_end;
      bool operator==(const Outcome&) const = default;
    };
    auto outcome = [](const std::string& t, bool avx2) {
      opm::util::set_avx2_enabled(avx2);
      auto d = base64_decode(t);
      Outcome o{d ? *d : d.error().message(), opm::util::base64_alphabet_run_end(t, 1)};
      opm::util::set_avx2_enabled(true);
      return o;
    };
    CHECK(outcome(text, true) == outcome(text, false));
    CHECK(outcome(text, true).run_end == text.size());
    for (std::size_t at : {0UL, 1UL, 15UL, 31UL, 32UL, 47UL, 63UL, 64UL, 100UL, 191UL}) {
      for (int byte = 0; byte < 256; ++byte) {
        std::string changed = text;
        changed[at] = static_cast<char>(byte);
        INFO("byte ", byte, " at ", at);
        CHECK(outcome(changed, true) == outcome(changed, false));
      }
    }
  }

  TEST_CASE("long runs decode alike in the AVX2 and portable forms") {
    std::string bytes;
    for (int i = 0; i < 5000; ++i) {
      bytes += static_cast<char>((i * 131 + i / 7) & 0xFF);
    }
    for (std::size_t size : {31UL, 32UL, 33UL, 95UL, 96UL, 97UL, 1000UL, 4999UL, 5000UL}) {
      std::string text = base64_encode(bytes.substr(0, size));
      opm::util::set_avx2_enabled(false);
      auto portable = base64_decode(text);
      opm::util::set_avx2_enabled(true);
      auto wide = base64_decode(text);
      REQUIRE(portable);
      REQUIRE(wide);
      CHECK(*wide == bytes.substr(0, size));
      CHECK(*portable == *wide);
    }
  }
}
