#include "init/mediatype.hpp"

#include <doctest/doctest.h>

#include <string>

using opm::init::detect_mediatype;
using opm::init::is_svg;
using namespace std::string_literals;

namespace {
std::string bytes(std::initializer_list<int> values, std::size_t pad = 0) {
  std::string out;
  for (int v : values) {
    out += static_cast<char>(v);
  }
  out.append(pad, '\0');
  return out;
}

std::string mime(const std::string& data) { return detect_mediatype(data).value(); }
} // namespace

TEST_SUITE("mediatype") {
  TEST_CASE("recognises SVG documents with declaration, doctype, comments and any case") {
    CHECK(is_svg("<svg viewBox=\"0 0 1 1\"><circle r=\"1\"/></svg>"));
    CHECK(is_svg("\n  <?xml version=\"1.0\"?>\n<!DOCTYPE svg PUBLIC \"x\">\n<SVG>\n</Svg>\n\n"));
    CHECK(is_svg("<!-- a * b --><svg><!-- 2*3 --></svg>"));
    CHECK(is_svg("<svg width=\"5*5\">x</svg>")); // a '*' inside the opening tag is fine
    CHECK(is_svg("<svg>\xC3\xA9</svg>"));        // short files skip the binary test
    CHECK(is_svg("<\xC5\xBFvg></svg>"));         // Go folds U+017F to 's'
  }

  TEST_CASE("rejects what upstream's SVG pattern rejects") {
    CHECK_FALSE(is_svg("<svg viewBox=\"0 0 1 1\"/>"));               // self-closing
    CHECK_FALSE(is_svg("<svg></svg><p>after</p>"));                  // content after </svg>
    CHECK_FALSE(is_svg("<svg><path d=\"M0 0\"/><!-- x -->*</svg>")); // '*' in the body
    CHECK_FALSE(is_svg("<svg><path d=\"M0 0\"/></svg>\xC3\xA9"));    // text after </svg>
    CHECK_FALSE(is_svg("<svg>\x01"
                       "0123456789012345678901234</svg>")); // control byte early
    CHECK_FALSE(is_svg("<html><svg></svg></html>"));
  }

  TEST_CASE("detects image signatures by leading bytes") {
    CHECK(mime(bytes({0x89, 'P', 'N', 'G', 0x0D, 0x0A})) == "image/png");
    CHECK(mime(bytes({0xFF, 0xD8, 0xFF, 0xE0})) == "image/jpeg");
    CHECK(mime("GIF89a") == "image/gif");
    CHECK(mime("RIFF\x10\0\0\0WEBPVP8 "s) == "image/webp");
    CHECK(mime(bytes({'I', 'I', '*', 0}, 8)) == "image/tiff");
    CHECK(mime(bytes({'M', 'M', 0, '*', 0, 0, 0, 8, 'C', 'R', 2})) == "image/x-canon-cr2");
    CHECK(mime("BMW rules") == "image/bmp");
    CHECK(mime(bytes({0, 0, 1, 0, 1, 0})) == "image/vnd.microsoft.icon");
    CHECK(mime(bytes({0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A, 0x00})) ==
          "image/jp2");
    CHECK(mime("8BPS\0\1"s) == "image/vnd.adobe.photoshop");
    CHECK(mime(bytes({'I', 'I', 0xBC, 1})) == "image/vnd.ms-photo");
    CHECK(mime("AC1015") == "image/vnd.dwg");
    CHECK(mime(bytes({0, 0, 0, 24}) + "ftypheic" + bytes({0, 0, 0, 0}) + "mif1heic") ==
          "image/heif");
    CHECK(mime(bytes({0, 0, 0, 24}) + "ftypmif1" + bytes({0, 0, 0, 0}) + "miafheic") ==
          "image/heif");
  }

  TEST_CASE("names non-image types so they can be rejected") {
    CHECK(mime("%PDF-1.7\n") == "application/pdf");
    CHECK(mime(bytes({'P', 'K', 3, 4}, 30)) == "application/zip");
    CHECK(mime(bytes({0x1F, 0x8B, 0x08, 0})) == "application/gzip");
    CHECK(mime(bytes({0, 'a', 's', 'm', 1, 0, 0, 0})) == "application/wasm");
    CHECK(mime(bytes({0, 0, 0, 0x18}) + "ftypisom" + std::string(8, '\0')) == "video/mp4");
    CHECK(mime("ID3\3\0"s) == "audio/mpeg");
    CHECK(mime(bytes({0x7F, 'E', 'L', 'F'}, 60)) == "application/x-executable");
    CHECK(mime(bytes({'w', 'O', 'F', 'F', 0, 1, 0, 0})) == "application/font-woff");
    std::string docx = bytes({'P', 'K', 3, 4}, 26) + "word/document.xml";
    CHECK(mime(docx) == "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
  }

  TEST_CASE("plain text matches nothing and an empty file is an error") {
    CHECK(mime("# just a readme\n") == "");
    auto empty = detect_mediatype("");
    REQUIRE_FALSE(empty);
    CHECK(empty.error().message() == "Empty buffer");
  }
}
