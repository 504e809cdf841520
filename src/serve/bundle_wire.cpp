#include "serve/bundle_wire.hpp"

#include <cstdint>
#include <string_view>

namespace opm::serve {

namespace {

constexpr std::uint32_t k_length_delimited = 2;

class WireWriter {
public:
  explicit WireWriter(std::string& out) : m_out(out) {}

  // A proto3 string: left out when empty, unless it is an element of a repeated field.
  void string(std::uint32_t number, std::string_view s, bool repeated = false) {
    if (s.empty() && !repeated) {
      return;
    }
    bytes(number, s);
  }

  void bytes(std::uint32_t number, std::string_view s) {
    header(number, s.size());
    m_out.append(s);
  }

  void header(std::uint32_t number, std::size_t size) {
    varint((number << 3) | k_length_delimited);
    varint(size);
  }

private:
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      m_out.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    m_out.push_back(static_cast<char>(v));
  }

  std::string& m_out;
};

std::string gvk_bytes(const api::GroupVersionKind& g) {
  std::string out;
  WireWriter w(out);
  w.string(1, g.group());
  w.string(2, g.version());
  w.string(3, g.kind());
  w.string(4, g.plural());
  return out;
}

template <typename Pair> std::string pair_bytes(const Pair& p) {
  std::string out;
  WireWriter w(out);
  w.string(1, p.type());
  w.string(2, p.value());
  return out;
}

} // namespace

void append_bundle_head(const api::Bundle& b, std::string& out) {
  WireWriter w(out);
  w.string(1, b.csvname());
  w.string(2, b.packagename());
  w.string(3, b.channelname());
}

void append_text_header(std::uint32_t number, std::size_t size, std::string& out) {
  WireWriter(out).header(number, size);
}

void append_bundle_edges(std::string_view replaces, std::span<const std::string> skips,
                         std::string& out) {
  WireWriter w(out);
  w.string(13, replaces);
  for (const auto& skip : skips) {
    w.string(14, skip, true);
  }
}

void append_bundle_tail(const api::Bundle& b, std::string& out) {
  WireWriter w(out);
  w.string(6, b.bundlepath());
  for (const auto& g : b.providedapis()) {
    w.bytes(7, gvk_bytes(g));
  }
  for (const auto& g : b.requiredapis()) {
    w.bytes(8, gvk_bytes(g));
  }
  w.string(9, b.version());
  w.string(10, b.skiprange());
  for (const auto& d : b.dependencies()) {
    w.bytes(11, pair_bytes(d));
  }
  for (const auto& p : b.properties()) {
    w.bytes(12, pair_bytes(p));
  }
  w.string(13, b.replaces());
  for (const auto& skip : b.skips()) {
    w.string(14, skip, true);
  }
}

void append_bundle_deprecation(const api::Bundle& b, std::string& out) {
  WireWriter w(out);
  if (b.has_deprecation()) {
    std::string deprecation;
    WireWriter(deprecation).string(1, b.deprecation().message());
    w.bytes(15, deprecation);
  }
}

} // namespace opm::serve
