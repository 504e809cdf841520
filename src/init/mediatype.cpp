#include "init/mediatype.hpp"

#include <array>
#include <cstdint>

namespace opm::init {

namespace {

using Bytes = std::string_view;

unsigned char at(Bytes b, std::size_t i) { return static_cast<unsigned char>(b[i]); }

bool has_prefix(Bytes b, std::initializer_list<unsigned char> magic, std::size_t offset = 0) {
  if (b.size() < offset + magic.size()) {
    return false;
  }
  std::size_t i = offset;
  for (unsigned char m : magic) {
    if (at(b, i++) != m) {
      return false;
    }
  }
  return true;
}

bool has_text(Bytes b, std::string_view text, std::size_t offset) {
  return b.size() >= offset + text.size() && b.substr(offset, text.size()) == text;
}

std::uint32_t big_endian32(Bytes b, std::size_t i) {
  return (std::uint32_t{at(b, i)} << 24) | (std::uint32_t{at(b, i + 1)} << 16) |
         (std::uint32_t{at(b, i + 2)} << 8) | std::uint32_t{at(b, i + 3)};
}

std::uint32_t little_endian32(Bytes b, std::size_t i) {
  return std::uint32_t{at(b, i)} | (std::uint32_t{at(b, i + 1)} << 8) |
         (std::uint32_t{at(b, i + 2)} << 16) | (std::uint32_t{at(b, i + 3)} << 24);
}

// --- SVG ---------------------------------------------------------------------------

bool is_regex_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

bool looks_binary(Bytes b) {
  if (b.size() < 24) {
    return false;
  }
  for (std::size_t i = 0; i < 24; ++i) {
    if (at(b, i) >= 0x80 || at(b, i) <= 8) {
      return true;
    }
  }
  return false;
}

std::string strip_comments(Bytes b) {
  std::string out;
  out.reserve(b.size());
  std::size_t pos = 0;
  for (;;) {
    auto open = b.find("<!--", pos);
    if (open == Bytes::npos) {
      break;
    }
    auto close = b.find("-->", open + 4);
    if (close == Bytes::npos) {
      break;
    }
    out.append(b.substr(pos, open - pos));
    pos = close + 3;
  }
  out.append(b.substr(pos));
  return out;
}

// Matches lower-case ASCII `word` at s[i], case-insensitively with Unicode simple
// folding: 's' also matches U+017F (long s), 'k' also matches U+212A (Kelvin sign).
bool match_word(std::string_view s, std::size_t& i, std::string_view word) {
  std::size_t k = i;
  for (char w : word) {
    if (k >= s.size()) {
      return false;
    }
    char c = s[k];
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
    if (c == w) {
      ++k;
      continue;
    }
    if (w == 's' && s.substr(k, 2) == "\xC5\xBF") {
      k += 2;
      continue;
    }
    if (w == 'k' && s.substr(k, 3) == "\xE2\x84\xAA") {
      k += 3;
      continue;
    }
    return false;
  }
  i = k;
  return true;
}

void skip_space(std::string_view s, std::size_t& i) {
  while (i < s.size() && is_regex_space(s[i])) {
    ++i;
  }
}

// `word`, then anything up to and including the next '>'.
bool match_tag(std::string_view s, std::size_t& i, std::string_view word) {
  std::size_t k = i;
  if (!match_word(s, k, word)) {
    return false;
  }
  auto close = s.find('>', k);
  if (close == std::string_view::npos) {
    return false;
  }
  i = close + 1;
  return true;
}

} // namespace

bool is_svg(std::string_view data) {
  if (looks_binary(data)) {
    return false;
  }
  std::string text = strip_comments(data);
  std::string_view s = text;
  std::size_t i = 0;
  skip_space(s, i);
  if (std::size_t k = i; match_tag(s, k, "<?xml")) {
    i = k;
    skip_space(s, i);
  }
  if (std::size_t k = i; match_tag(s, k, "<!doctype svg")) {
    i = k;
    skip_space(s, i);
  }
  if (!match_tag(s, i, "<svg")) {
    return false;
  }
  std::string_view body = s.substr(i);
  while (!body.empty() && is_regex_space(body.back())) {
    body.remove_suffix(1);
  }
  if (body.find('*') != std::string_view::npos) {
    return false;
  }
  // The closing tag, matched from its start: "</svg>" is 6 bytes, "</ſvg>" 7.
  for (std::size_t len : {std::size_t{6}, std::size_t{7}}) {
    if (body.size() >= len) {
      std::size_t k = body.size() - len;
      if (match_word(body, k, "</svg>") && k == body.size()) {
        return true;
      }
    }
  }
  return false;
}

namespace {

// --- application -------------------------------------------------------------------

bool wasm(Bytes b) {
  return b.size() >= 8 && has_prefix(b, {0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00});
}
bool dex(Bytes b) {
  return b.size() > 36 && has_prefix(b, {0x64, 0x65, 0x78, 0x0A}) && at(b, 36) == 0x70;
}
bool dey(Bytes b) {
  return b.size() > 100 && has_prefix(b, {0x64, 0x65, 0x79, 0x0A}) && dex(b.substr(40, 60));
}

// --- image -------------------------------------------------------------------------

bool jpeg(Bytes b) { return b.size() > 2 && has_prefix(b, {0xFF, 0xD8, 0xFF}); }
bool jpeg2000(Bytes b) {
  return b.size() > 12 && has_prefix(b, {0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A,
                                         0x87, 0x0A, 0x00});
}
bool png(Bytes b) { return b.size() > 3 && has_prefix(b, {0x89, 0x50, 0x4E, 0x47}); }
bool gif(Bytes b) { return b.size() > 2 && has_prefix(b, {0x47, 0x49, 0x46}); }
bool webp(Bytes b) { return b.size() > 11 && has_text(b, "WEBP", 8); }
bool tiff_header(Bytes b) {
  return has_prefix(b, {0x49, 0x49, 0x2A, 0x00}) || has_prefix(b, {0x4D, 0x4D, 0x00, 0x2A});
}
bool cr2(Bytes b) {
  return b.size() > 10 && tiff_header(b) && at(b, 8) == 0x43 && at(b, 9) == 0x52 &&
         at(b, 10) == 0x02;
}
bool tiff(Bytes b) { return b.size() > 10 && tiff_header(b) && !cr2(b); }
bool bmp(Bytes b) { return b.size() > 1 && has_prefix(b, {0x42, 0x4D}); }
bool jxr(Bytes b) { return b.size() > 2 && has_prefix(b, {0x49, 0x49, 0xBC}); }
bool psd(Bytes b) { return b.size() > 3 && has_prefix(b, {0x38, 0x42, 0x50, 0x53}); }
bool ico(Bytes b) { return b.size() > 3 && has_prefix(b, {0x00, 0x00, 0x01, 0x00}); }

bool iso_bmff(Bytes b) {
  return b.size() >= 16 && has_text(b, "ftyp", 4) && b.size() >= big_endian32(b, 0);
}
bool heif(Bytes b) {
  if (!iso_bmff(b) || b.size() < 17) {
    return false;
  }
  std::string_view major = b.substr(8, 4);
  if (major == "heic") {
    return true;
  }
  if (major != "mif1" && major != "msf1") {
    return false;
  }
  std::size_t ftyp_length = big_endian32(b, 0);
  for (std::size_t i = 16; i < ftyp_length && i + 4 <= b.size(); i += 4) {
    if (b.substr(i, 4) == "heic") {
      return true;
    }
  }
  return false;
}
bool dwg(Bytes b) { return b.size() > 3 && has_prefix(b, {0x41, 0x43, 0x31, 0x30}); }

// --- video -------------------------------------------------------------------------

bool mp4(Bytes b) {
  if (b.size() <= 11 || !has_text(b, "ftyp", 4)) {
    return false;
  }
  static constexpr std::array<std::string_view, 28> k_brands = {
      "avc1", "dash", "iso2", "iso3", "iso4", "iso5", "iso6", "isom", "mmp4", "mp41",
      "mp42", "mp4v", "mp71", "MSNV", "NDAS", "NDSC", "NSDC", "NDSH", "NDSM", "NDSP",
      "NDSS", "NDXC", "NDXH", "NDXM", "NDXP", "NDXS", "F4V ", "F4P "};
  std::string_view brand = b.substr(8, 4);
  for (std::string_view k : k_brands) {
    if (brand == k) {
      return true;
    }
  }
  return false;
}
bool m4v(Bytes b) { return b.size() > 10 && has_text(b, "ftypM4V", 4); }
bool matroska_with(Bytes b, std::string_view doc_type) {
  if (b.size() <= 3 || !has_prefix(b, {0x1A, 0x45, 0xDF, 0xA3})) {
    return false;
  }
  Bytes head = b.substr(0, 4096);
  auto index = head.find(doc_type);
  if (index == Bytes::npos || index < 3) {
    return false;
  }
  return at(b, index - 3) == 0x42 && at(b, index - 2) == 0x82;
}
bool mkv(Bytes b) { return matroska_with(b, "matroska"); }
bool webm(Bytes b) { return matroska_with(b, "webm"); }
bool mov(Bytes b) {
  return b.size() > 15 &&
         (has_prefix(b, {0x00, 0x00, 0x00, 0x14, 0x66, 0x74, 0x79, 0x70}) ||
          has_text(b, "moov", 4) || has_text(b, "mdat", 4) || has_text(b, "mdat", 12));
}
bool avi(Bytes b) { return b.size() > 10 && has_text(b, "RIFF", 0) && has_text(b, "AVI", 8); }
bool wmv(Bytes b) {
  return b.size() > 9 &&
         has_prefix(b, {0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9});
}
bool mpeg(Bytes b) {
  return b.size() > 3 && has_prefix(b, {0x00, 0x00, 0x01}) && at(b, 3) >= 0xB0 && at(b, 3) <= 0xBF;
}
bool flv(Bytes b) { return b.size() > 3 && has_prefix(b, {0x46, 0x4C, 0x56, 0x01}); }
bool three_gp(Bytes b) { return b.size() > 10 && has_text(b, "ftyp3gp", 4); }

// --- audio -------------------------------------------------------------------------

bool midi(Bytes b) { return b.size() > 3 && has_text(b, "MThd", 0); }
bool mp3(Bytes b) { return b.size() > 2 && (has_text(b, "ID3", 0) || has_prefix(b, {0xFF, 0xFB})); }
bool m4a(Bytes b) { return b.size() > 10 && (has_text(b, "ftypM4A", 4) || has_text(b, "M4A ", 0)); }
bool ogg(Bytes b) { return b.size() > 3 && has_text(b, "OggS", 0); }
bool flac(Bytes b) { return b.size() > 3 && has_text(b, "fLaC", 0); }
bool wav(Bytes b) { return b.size() > 11 && has_text(b, "RIFF", 0) && has_text(b, "WAVE", 8); }
bool amr(Bytes b) { return b.size() > 11 && has_text(b, "#!AMR\n", 0); }
bool aac(Bytes b) {
  return b.size() > 1 && (has_prefix(b, {0xFF, 0xF1}) || has_prefix(b, {0xFF, 0xF9}));
}
bool aiff(Bytes b) { return b.size() > 11 && has_text(b, "FORM", 0) && has_text(b, "AIFF", 8); }

// --- font --------------------------------------------------------------------------

bool woff(Bytes b) {
  return b.size() > 7 && has_prefix(b, {0x77, 0x4F, 0x46, 0x46, 0x00, 0x01, 0x00, 0x00});
}
bool woff2(Bytes b) {
  return b.size() > 7 && has_prefix(b, {0x77, 0x4F, 0x46, 0x32, 0x00, 0x01, 0x00, 0x00});
}
bool ttf(Bytes b) { return b.size() > 4 && has_prefix(b, {0x00, 0x01, 0x00, 0x00, 0x00}); }
bool otf(Bytes b) { return b.size() > 4 && has_prefix(b, {0x4F, 0x54, 0x54, 0x4F, 0x00}); }

// --- document ----------------------------------------------------------------------

bool ole_with(Bytes b, unsigned char x, unsigned char y) {
  if (!has_prefix(b, {0xD0, 0xCF, 0x11, 0xE0})) {
    return false;
  }
  // Short files cannot say which Office format they are; any of the three matches.
  return b.size() <= 513 || (at(b, 512) == x && at(b, 513) == y);
}
bool doc(Bytes b) { return ole_with(b, 0xEC, 0xA5); }
bool xls(Bytes b) { return ole_with(b, 0x09, 0x08); }
bool ppt(Bytes b) { return ole_with(b, 0xA0, 0x46); }

enum class Ooxml { none, docx, xlsx, pptx, other };

Ooxml ooxml_dir(Bytes b, std::size_t offset) {
  if (has_text(b, "word/", offset)) {
    return Ooxml::docx;
  }
  if (has_text(b, "ppt/", offset)) {
    return Ooxml::pptx;
  }
  if (has_text(b, "xl/", offset)) {
    return Ooxml::xlsx;
  }
  return Ooxml::none;
}

// Offset of the next zip local file header within [start, start + 6000), relative to
// start, or npos.
std::size_t next_zip_header(Bytes b, std::size_t start) {
  std::size_t end = std::min(b.size(), start + 6000);
  if (start >= end) {
    return Bytes::npos;
  }
  return b.substr(start, end - start).find("PK\x03\x04");
}

Ooxml ooxml(Bytes b) {
  if (!has_text(b, "PK\x03\x04", 0)) {
    return Ooxml::none;
  }
  if (auto t = ooxml_dir(b, 0x1E); t != Ooxml::none) {
    return t;
  }
  if (!has_text(b, "[Content_Types].xml", 0x1E) && !has_text(b, "_rels/.rels", 0x1E) &&
      !has_text(b, "docProps", 0x1E)) {
    return Ooxml::none;
  }
  // The compressed size of the first entry is a 32-bit field; adding 49 wraps as in Go.
  std::size_t start = static_cast<std::uint32_t>(little_endian32(b, 18) + 49U);
  std::size_t idx = next_zip_header(b, start);
  if (idx == Bytes::npos) {
    return Ooxml::none;
  }
  start += idx + 4 + 26;
  idx = next_zip_header(b, start);
  if (idx == Bytes::npos) {
    return Ooxml::none;
  }
  start += idx + 4 + 26;
  if (auto t = ooxml_dir(b, start); t != Ooxml::none) {
    return t;
  }
  start += 26;
  idx = next_zip_header(b, start);
  if (idx == Bytes::npos) {
    return Ooxml::other;
  }
  start += idx + 4 + 26;
  auto t = ooxml_dir(b, start);
  return t == Ooxml::none ? Ooxml::other : t;
}
bool docx(Bytes b) { return ooxml(b) == Ooxml::docx; }
bool xlsx(Bytes b) { return ooxml(b) == Ooxml::xlsx; }
bool pptx(Bytes b) { return ooxml(b) == Ooxml::pptx; }

// --- archive -----------------------------------------------------------------------

bool epub(Bytes b) { return has_text(b, "PK\x03\x04mimetypeapplication/epub+zip", 0); }
bool zip(Bytes b) {
  return b.size() > 3 && at(b, 0) == 0x50 && at(b, 1) == 0x4B &&
         (at(b, 2) == 0x3 || at(b, 2) == 0x5 || at(b, 2) == 0x7) &&
         (at(b, 3) == 0x4 || at(b, 3) == 0x6 || at(b, 3) == 0x8);
}
bool tar(Bytes b) { return b.size() > 261 && has_text(b, "ustar", 257); }
bool rar(Bytes b) {
  return b.size() > 6 && has_prefix(b, {0x52, 0x61, 0x72, 0x21, 0x1A, 0x07}) &&
         (at(b, 6) == 0x0 || at(b, 6) == 0x1);
}
bool gz(Bytes b) { return has_prefix(b, {0x1F, 0x8B, 0x08}); }
bool bz2(Bytes b) { return has_text(b, "BZh", 0); }
bool seven_z(Bytes b) { return has_prefix(b, {0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C}); }
bool xz(Bytes b) { return has_prefix(b, {0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00}); }
bool zstd(Bytes b) {
  // A frame, possibly after skippable frames (magic 0x184D2A5?, then a 32-bit length).
  for (;;) {
    if (has_prefix(b, {0x28, 0xB5, 0x2F, 0xFD})) {
      return true;
    }
    if (b.size() < 8 || (little_endian32(b, 0) & 0xFFFFFFF0U) != 0x184D2A50U) {
      return false;
    }
    std::size_t skip = little_endian32(b, 4);
    if (b.size() < 8 + skip) {
      return false;
    }
    b.remove_prefix(8 + skip);
  }
}
bool pdf(Bytes b) { return has_text(b, "%PDF", 0); }
bool exe(Bytes b) { return has_text(b, "MZ", 0); }
bool swf(Bytes b) {
  return b.size() > 2 && (at(b, 0) == 0x43 || at(b, 0) == 0x46) && at(b, 1) == 0x57 &&
         at(b, 2) == 0x53;
}
bool rtf(Bytes b) { return has_text(b, "{\\rtf", 0); }
bool eot(Bytes b) {
  return b.size() > 35 && at(b, 34) == 0x4C && at(b, 35) == 0x50 &&
         (has_prefix(b, {0x02, 0x00, 0x01}, 8) || has_prefix(b, {0x01, 0x00, 0x00}, 8) ||
          has_prefix(b, {0x02, 0x00, 0x02}, 8));
}
bool ps(Bytes b) { return has_text(b, "%!", 0); }
bool sqlite(Bytes b) { return has_text(b, "SQLi", 0); }
bool nes(Bytes b) { return has_text(b, "NES\x1A", 0); }
bool crx(Bytes b) { return has_text(b, "Cr24", 0); }
bool cab(Bytes b) { return b.size() > 3 && (has_text(b, "MSCF", 0) || has_text(b, "ISc(", 0)); }
bool deb(Bytes b) { return has_text(b, "!<arch>\ndebian-binary", 0); }
bool ar(Bytes b) { return has_text(b, "!<arch>", 0); }
bool compress(Bytes b) {
  return b.size() > 1 && (has_prefix(b, {0x1F, 0xA0}) || has_prefix(b, {0x1F, 0x9D}));
}
bool lzip(Bytes b) { return has_text(b, "LZIP", 0); }
bool rpm(Bytes b) { return b.size() > 96 && has_prefix(b, {0xED, 0xAB, 0xEE, 0xDB}); }
bool elf(Bytes b) {
  return b.size() > 52 && has_text(b,
                                   "\x7F"
                                   "ELF",
                                   0);
}
bool dicom(Bytes b) { return b.size() > 131 && has_text(b, "DICM", 128); }
bool iso(Bytes b) { return b.size() > 32773 && has_text(b, "CD001", 32769); }
bool macho(Bytes b) {
  return b.size() > 3 &&
         (has_prefix(b, {0xFE, 0xED, 0xFA, 0xCF}) || has_prefix(b, {0xFE, 0xED, 0xFA, 0xCE}) ||
          has_prefix(b, {0xBE, 0xBA, 0xFE, 0xCA}) || has_prefix(b, {0xCF, 0xFA, 0xED, 0xFE}) ||
          has_prefix(b, {0xCE, 0xFA, 0xED, 0xFE}) || has_prefix(b, {0xCA, 0xFE, 0xBA, 0xBE}));
}

struct Signature {
  std::string_view mime;
  bool (*matches)(Bytes);
};

// Upstream checks each group in Go map order, which is random; where two signatures
// of one group both match, this table's order decides.
constexpr Signature k_signatures[] = {
    {"image/svg+xml", is_svg},
    {"application/wasm", wasm},
    {"application/vnd.android.dex", dex},
    {"application/vnd.android.dey", dey},
    {"image/jpeg", jpeg},
    {"image/jp2", jpeg2000},
    {"image/png", png},
    {"image/gif", gif},
    {"image/webp", webp},
    {"image/x-canon-cr2", cr2},
    {"image/tiff", tiff},
    {"image/bmp", bmp},
    {"image/vnd.ms-photo", jxr},
    {"image/vnd.adobe.photoshop", psd},
    {"image/vnd.microsoft.icon", ico},
    {"image/heif", heif},
    {"image/vnd.dwg", dwg},
    {"video/mp4", mp4},
    {"video/x-m4v", m4v},
    {"video/x-matroska", mkv},
    {"video/webm", webm},
    {"video/quicktime", mov},
    {"video/x-msvideo", avi},
    {"video/x-ms-wmv", wmv},
    {"video/mpeg", mpeg},
    {"video/x-flv", flv},
    {"video/3gpp", three_gp},
    {"audio/midi", midi},
    {"audio/mpeg", mp3},
    {"audio/m4a", m4a},
    {"audio/ogg", ogg},
    {"audio/x-flac", flac},
    {"audio/x-wav", wav},
    {"audio/amr", amr},
    {"audio/aac", aac},
    {"audio/x-aiff", aiff},
    {"application/font-woff", woff},
    {"application/font-woff", woff2},
    {"application/font-sfnt", ttf},
    {"application/font-sfnt", otf},
    {"application/msword", doc},
    {"application/vnd.openxmlformats-officedocument.wordprocessingml.document", docx},
    {"application/vnd.ms-excel", xls},
    {"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", xlsx},
    {"application/vnd.ms-powerpoint", ppt},
    {"application/vnd.openxmlformats-officedocument.presentationml.presentation", pptx},
    {"application/epub+zip", epub},
    {"application/zip", zip},
    {"application/x-tar", tar},
    {"application/vnd.rar", rar},
    {"application/gzip", gz},
    {"application/x-bzip2", bz2},
    {"application/x-7z-compressed", seven_z},
    {"application/x-xz", xz},
    {"application/zstd", zstd},
    {"application/pdf", pdf},
    {"application/vnd.microsoft.portable-executable", exe},
    {"application/x-shockwave-flash", swf},
    {"application/rtf", rtf},
    {"application/octet-stream", eot},
    {"application/postscript", ps},
    {"application/vnd.sqlite3", sqlite},
    {"application/x-nintendo-nes-rom", nes},
    {"application/x-google-chrome-extension", crx},
    {"application/vnd.ms-cab-compressed", cab},
    {"application/vnd.debian.binary-package", deb},
    {"application/x-unix-archive", ar},
    {"application/x-compress", compress},
    {"application/x-lzip", lzip},
    {"application/x-rpm", rpm},
    {"application/x-executable", elf},
    {"application/dicom", dicom},
    {"application/x-iso9660-image", iso},
    {"application/x-mach-binary", macho},
};

} // namespace

Result<std::string> detect_mediatype(std::string_view data) {
  if (data.empty()) {
    return util::fail(Errc::invalid, "Empty buffer");
  }
  for (const Signature& sig : k_signatures) {
    if (sig.matches(data)) {
      return std::string(sig.mime);
    }
  }
  return std::string();
}

} // namespace opm::init
