#include "util/avx2.hpp"
#include "yaml/split.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <vector>

using namespace opm;

namespace {

// Every chunk of `stream` (begin, end, first line, CRLF, unterminated, longest line), or the
// error that stopped the split, as one line each.
std::vector<std::string> chunks_of(const std::string& stream, bool avx2) {
  util::set_avx2_enabled(avx2);
  std::vector<std::string> out;
  yaml::Splitter splitter(stream);
  while (true) {
    auto next = splitter.next();
    if (!next) {
      out.push_back("error at line " + std::to_string(next.error().line) + ": " +
                    next.error().message);
      break;
    }
    if (!*next) {
      break;
    }
    const yaml::Chunk& c = **next;
    out.push_back(std::to_string(c.begin) + "-" + std::to_string(c.end) + " line " +
                  std::to_string(c.line) + (c.crlf ? " crlf" : "") +
                  (c.unterminated ? " unterminated" : "") + " longest " +
                  std::to_string(c.longest_line));
  }
  util::set_avx2_enabled(true);
  return out;
}

// Lines of varied lengths (some longer than a 64-byte step, some empty), sequence entries at
// the margin, and near misses of a separator.
std::string lines_of(std::size_t count, std::size_t seed) {
  static const char* const k_lines[] = {
      "schema: olm.bundle",
      "- name: a",
      "--",
      "-- -",
      "",
      ("  description: a line long enough to cross more than one step of sixty-four bytes, twice "
       "over and then some"),
      "- - x",
      "#---",
      " ---",
      "x",
  };
  constexpr std::size_t k_kinds = sizeof(k_lines) / sizeof(k_lines[0]);
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    out += k_lines[(i * 7 + seed * 3 + i / 5) % k_kinds];
    out += '\n';
  }
  return out;
}

} // namespace

TEST_SUITE("yaml split") {
  TEST_CASE("documents are cut alike in the AVX2 and portable forms") {
    const std::string body = lines_of(40, 1);
    // A separator at every offset around the 32- and 64-byte steps, with CRLF and without.
    for (std::size_t at = 0; at < 200; at += 1) {
      std::string stream = body;
      std::size_t line_start = stream.rfind('\n', at);
      line_start = line_start == std::string::npos ? 0 : line_start + 1;
      for (const char* separator : {"---\n", "--- # next\n", "---\r\n", "----\n", "--- x\n"}) {
        std::string cut = stream;
        cut.insert(line_start, separator);
        INFO("separator ", separator, " at ", line_start);
        CHECK(chunks_of(cut, true) == chunks_of(cut, false));
      }
    }
  }

  TEST_CASE("line breaks, lengths and an unterminated end are counted alike in both forms") {
    for (std::size_t seed = 0; seed < 12; ++seed) {
      std::string stream = lines_of(30 + seed * 5, seed);
      std::string crlf;
      for (char c : stream) {
        if (c == '\n' && seed % 3 == 0) {
          crlf += '\r';
        }
        crlf += c;
      }
      if (seed % 2 == 1) {
        crlf += "last: line without a break";
      }
      if (seed % 4 == 2) {
        crlf.insert(crlf.size() / 2, "\n---\n\n---\n");
      }
      INFO("seed ", seed);
      CHECK(chunks_of(crlf, true) == chunks_of(crlf, false));
    }
  }

  TEST_CASE("a long document's chunk is its whole text") {
    const std::string stream = lines_of(500, 4);
    const auto chunks = chunks_of(stream, true);
    REQUIRE(chunks.size() == 1);
    CHECK(chunks[0] == "0-" + std::to_string(stream.size()) + " line 1 longest 107");
  }
}
