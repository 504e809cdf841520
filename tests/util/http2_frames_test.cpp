#include "util/http2_frames.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace opm::util::http2;

namespace {

std::string frame(std::uint8_t type, std::uint32_t stream, std::string_view payload) {
  std::string out;
  auto length = static_cast<std::uint32_t>(payload.size());
  out += static_cast<char>(length >> 16);
  out += static_cast<char>(length >> 8);
  out += static_cast<char>(length);
  out += static_cast<char>(type);
  out += '\0';
  for (int shift : {24, 16, 8, 0}) {
    out += static_cast<char>(stream >> shift);
  }
  out += payload;
  return out;
}

struct Seen {
  std::vector<FrameHeader> headers;
  bool operator()(const FrameHeader& h) {
    headers.push_back(h);
    return true;
  }
};

} // namespace

TEST_SUITE("http2 frames") {
  TEST_CASE("finds every frame header after the client preface, fed a byte at a time") {
    std::string bytes = std::string(k_client_preface_size, 'P') + frame(4, 0, "123456") +
                        frame(1, 1, "hdr") + frame(3, 1, "1234") + frame(8, 0, "");
    FrameCursor cursor(k_client_preface_size);
    Seen seen;
    for (char c : bytes) {
      REQUIRE(cursor.feed(std::string_view(&c, 1), seen));
    }
    REQUIRE(seen.headers.size() == 4);
    CHECK(seen.headers[0].type == 4);
    CHECK(seen.headers[0].length == 6);
    CHECK(seen.headers[1].type == 1);
    CHECK(seen.headers[1].stream_id == 1);
    CHECK(seen.headers[2].type == static_cast<std::uint8_t>(FrameType::rst_stream));
    CHECK(seen.headers[3].length == 0);
    CHECK(cursor.offset() == bytes.size());
    CHECK(cursor.last_boundary() == bytes.size());
  }

  TEST_CASE("the last boundary stays before a frame not yet complete") {
    std::string first = frame(0, 3, "abcdef");
    std::string second = frame(0, 3, "ghijkl");
    FrameCursor cursor;
    Seen seen;
    cursor.feed(first + second.substr(0, 4), seen);
    CHECK(cursor.last_boundary() == first.size());
    cursor.feed(second.substr(4, 8), seen);
    CHECK(cursor.last_boundary() == first.size());
    cursor.feed(second.substr(12), seen);
    CHECK(cursor.last_boundary() == first.size() + second.size());
  }

  TEST_CASE("advances to the end of the frame under way, wherever it was cut") {
    std::string first = frame(0, 1, "abcdef");
    std::string second = frame(0, 1, "");
    std::string bytes = first + second + frame(1, 3, "xy");
    for (std::size_t cut = 1; cut < first.size(); ++cut) {
      FrameCursor cursor;
      cursor.feed(std::string_view(bytes).substr(0, cut), Seen{});
      REQUIRE_FALSE(cursor.at_boundary());
      CHECK(cursor.advance_to_boundary(std::string_view(bytes).substr(cut)) == first.size() - cut);
      CHECK(cursor.at_boundary());
      CHECK(cursor.offset() == first.size());
      // A frame without payload ends with its header.
      CHECK(cursor.advance_to_boundary(std::string_view(bytes).substr(first.size())) ==
            second.size());
    }
  }

  TEST_CASE("advancing inside a frame that goes on takes every byte given") {
    std::string bytes = frame(0, 1, "abcdefgh");
    FrameCursor cursor;
    cursor.feed(std::string_view(bytes).substr(0, 3), Seen{});
    CHECK(cursor.advance_to_boundary(std::string_view(bytes).substr(3, 8)) == 8);
    CHECK_FALSE(cursor.at_boundary());
    CHECK(cursor.advance_to_boundary(std::string_view(bytes).substr(11)) == bytes.size() - 11);
    CHECK(cursor.at_boundary());
  }

  TEST_CASE("stops at the header the caller refuses") {
    std::string bytes = frame(3, 1, "1234") + frame(3, 3, "1234") + frame(3, 5, "1234");
    FrameCursor cursor;
    int calls = 0;
    bool whole = cursor.feed(bytes, [&](const FrameHeader& h) {
      ++calls;
      return h.stream_id < 3;
    });
    CHECK_FALSE(whole);
    CHECK(calls == 2);
  }

  TEST_CASE("a stream id ignores the reserved bit") {
    std::string bytes = frame(1, 0x80000005U, "");
    FrameCursor cursor;
    Seen seen;
    cursor.feed(bytes, seen);
    REQUIRE(seen.headers.size() == 1);
    CHECK(seen.headers[0].stream_id == 5);
  }

  TEST_CASE("a budget gives its burst at once, then nothing until time passes") {
    RateBudget budget(3, 1);
    CHECK(budget.spend());
    CHECK(budget.spend());
    CHECK(budget.spend());
    CHECK_FALSE(budget.spend());
  }

  TEST_CASE("a GOAWAY frame names the last stream and the error") {
    auto goaway = goaway_frame(7, k_enhance_your_calm);
    FrameCursor cursor;
    Seen seen;
    cursor.feed(std::string_view(goaway.data(), goaway.size()), seen);
    REQUIRE(seen.headers.size() == 1);
    CHECK(seen.headers[0].type == 7);
    CHECK(seen.headers[0].length == 8);
    CHECK(std::string(goaway.data() + 9, 8) == std::string("\0\0\0\x07\0\0\0\x0b", 8));
  }
}
