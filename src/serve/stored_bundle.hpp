#pragma once

#include "serve/bundle_wire.hpp"
#include "serve/registry.pb.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

// How the server keeps each bundle answer: its wire bytes, with the manifests (csvJson and
// each object) held apart and shared. A bundle's CSV is usually in its answer twice (csvJson
// and object) and the same bundle is an entry of several channels, so one copy of each
// manifest text serves every answer that carries it.
namespace opm::serve {

using SharedText = std::shared_ptr<const std::string>;

// Hands out one shared copy of equal texts. Used while a catalog loads, then dropped.
class TextPool {
public:
  // The one kept copy of `text`, made here the first time it is seen.
  SharedText share(std::string_view text);

private:
  std::unordered_multimap<std::size_t, SharedText> m_texts;
};

class StoredBundle {
public:
  StoredBundle() = default;
  // Keeps a bundle's fields (its replaces and skips left out) and its manifests, taken into
  // `pool`. A bundle without csvJson can be given one as pieces (`made_csv`, joined in order),
  // which is then also its object when it has none.
  StoredBundle(const BundleParts& parts, std::string_view csv_json,
               std::span<const std::string> objects, TextPool& pool,
               std::span<const SharedText> made_csv = {});

  // The answer's wire bytes in order, as views of what this keeps.
  void append_pieces(std::vector<std::string_view>& out) const;
  // The whole answer as one string.
  [[nodiscard]] std::string bytes() const;
  // The ListBundles message's wire bytes: the bundle with or without its manifests, with
  // these replaces and skips.
  void append_listing(std::string& out, bool with_manifests, std::string_view replaces,
                      std::span<const std::string> skips) const;
  // The whole bundle decoded.
  void decode(api::Bundle& out) const;

private:
  // The head (fields 1-3), the tag and length of each text, the tail (fields 6-15).
  std::string m_own;
  std::uint32_t m_head_size = 0;
  std::uint32_t m_deprecation_at = 0; // where field 15 starts in m_own
  // Where each piece of text goes in m_own (after a text's tag and length, or after the
  // piece before it).
  std::vector<std::uint32_t> m_text_at;
  std::vector<SharedText> m_texts;
};

} // namespace opm::serve
