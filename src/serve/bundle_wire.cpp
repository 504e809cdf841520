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

// A nested message's bytes as one field of `w`.
template <typename Write> void message(WireWriter& w, std::uint32_t number, Write write) {
  std::string bytes;
  WireWriter inner(bytes);
  write(inner);
  w.bytes(number, bytes);
}

void gvk_field(WireWriter& w, std::uint32_t number, const GvkParts& g) {
  message(w, number, [&g](WireWriter& m) {
    m.string(1, g.group);
    m.string(2, g.version);
    m.string(3, g.kind);
    m.string(4, g.plural);
  });
}

void pair_field(WireWriter& w, std::uint32_t number, const PairParts& p) {
  message(w, number, [&p](WireWriter& m) {
    m.string(1, p.type);
    m.string(2, p.value);
  });
}

} // namespace

BundleParts parts_of(const api::Bundle& b) {
  BundleParts parts;
  parts.csv_name = b.csvname();
  parts.package_name = b.packagename();
  parts.channel_name = b.channelname();
  parts.bundle_path = b.bundlepath();
  parts.version = b.version();
  parts.skip_range = b.skiprange();
  auto gvks = [](const auto& from, std::vector<GvkParts>& to) {
    to.reserve(from.size());
    for (const auto& g : from) {
      to.push_back({g.group(), g.version(), g.kind(), g.plural()});
    }
  };
  gvks(b.providedapis(), parts.provided_apis);
  gvks(b.requiredapis(), parts.required_apis);
  auto pairs = [](const auto& from, std::vector<PairParts>& to) {
    to.reserve(from.size());
    for (const auto& p : from) {
      to.push_back({p.type(), p.value()});
    }
  };
  pairs(b.dependencies(), parts.dependencies);
  pairs(b.properties(), parts.properties);
  if (b.has_deprecation()) {
    parts.deprecation = b.deprecation().message();
  }
  return parts;
}

void append_bundle_head(const BundleParts& b, std::string& out) {
  WireWriter w(out);
  w.string(1, b.csv_name);
  w.string(2, b.package_name);
  w.string(3, b.channel_name);
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

void append_bundle_tail(const BundleParts& b, std::string& out) {
  WireWriter w(out);
  w.string(6, b.bundle_path);
  for (const auto& g : b.provided_apis) {
    gvk_field(w, 7, g);
  }
  for (const auto& g : b.required_apis) {
    gvk_field(w, 8, g);
  }
  w.string(9, b.version);
  w.string(10, b.skip_range);
  for (const auto& d : b.dependencies) {
    pair_field(w, 11, d);
  }
  for (const auto& p : b.properties) {
    pair_field(w, 12, p);
  }
}

void append_bundle_deprecation(const BundleParts& b, std::string& out) {
  WireWriter w(out);
  if (b.deprecation) {
    message(w, 15, [&b](WireWriter& m) { m.string(1, *b.deprecation); });
  }
}

} // namespace opm::serve
