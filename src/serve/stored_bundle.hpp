#pragma once

#include "serve/bundle_wire.hpp"
#include "serve/registry.pb.h"

#include <cstdint>
#include <memory>
#include <mutex>
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

// A text made when an answer first needs it rather than at load, such as a CSV synthesised
// from a bundle's olm.csv.metadata, and kept from then on: a catalog's start pays only for what
// its clients ask for, and each answer after the first is views, as for a kept text.
class MadeText {
public:
  MadeText() = default;
  MadeText(const MadeText&) = delete;
  MadeText& operator=(const MadeText&) = delete;
  virtual ~MadeText() = default;

  // The text, made by the first caller (others wait for it).
  [[nodiscard]] const std::string& text() const;
  // The tag and length that put the text in the answer as field `number` (the bundle's
  // csvJson or an object).
  [[nodiscard]] std::string_view header(std::uint32_t number) const;

private:
  [[nodiscard]] virtual std::string make() const = 0;

  mutable std::once_flag m_made;
  mutable std::string m_text;
  mutable std::string m_csv_json_header;
  mutable std::string m_object_header;
};

class StoredBundle {
public:
  StoredBundle() = default;
  // Keeps a bundle's fields (its replaces and skips left out) and its manifests, taken into
  // `pool`. A bundle without csvJson can be given one made on request (`made_csv`), which is
  // then also its object when it has none.
  StoredBundle(const BundleParts& parts, std::string_view csv_json,
               std::span<const std::string> objects, TextPool& pool,
               std::shared_ptr<const MadeText> made_csv = nullptr);

  // The answer's wire bytes in order, as views of what this keeps (a made text made first).
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
  // A text that goes at `at` in m_own: a kept one (its tag and length already in m_own) or,
  // without `kept`, the made text as field `made_field` (tag and length written with it).
  struct Insert {
    std::uint32_t at = 0;
    std::uint32_t made_field = 0;
    SharedText kept;
  };
  // Where the last text goes in m_own (the end of the head when there is none).
  [[nodiscard]] std::uint32_t texts_end() const;
  // m_own up to texts_end(), every text in its place.
  void append_through_texts(std::string& out) const;

  // The head (fields 1-3), the tag and length of each kept text, the tail (fields 6-15).
  std::string m_own;
  std::uint32_t m_head_size = 0;
  std::uint32_t m_deprecation_at = 0; // where field 15 starts in m_own
  std::vector<Insert> m_inserts;      // in the order of their places
  std::shared_ptr<const MadeText> m_made;
};

} // namespace opm::serve
