#include "serve/stored_bundle.hpp"

#include "serve/bundle_wire.hpp"
#include "util/scratch_heap.hpp"

#include <algorithm>
#include <functional>

namespace opm::serve {

namespace {

// Long texts are keyed by their size and ends only: hashing whole CSVs would cost more than
// comparing the few that share a key.
std::size_t text_key(std::string_view text) {
  constexpr std::size_t k_sampled = 512;
  std::hash<std::string_view> hash;
  if (text.size() <= 2 * k_sampled) {
    return hash(text);
  }
  return hash(text.substr(0, k_sampled)) ^ (hash(text.substr(text.size() - k_sampled)) * 31) ^
         text.size();
}

} // namespace

SharedText TextPool::share(std::string_view text) {
  const std::size_t key = text_key(text);
  auto [begin, end] = m_texts.equal_range(key);
  for (auto it = begin; it != end; ++it) {
    if (*it->second == text) {
      return it->second;
    }
  }
  // A shared text lasts as long as the server: copied out of a load's scratch heap, at its size
  // (texts built by appending can hold twice theirs), and only once it is known to be new.
  SharedText shared;
  {
    util::KeptHeap kept;
    shared = std::make_shared<const std::string>(text);
  }
  m_texts.emplace(key, shared);
  return shared;
}

StoredBundle::StoredBundle(const BundleParts& parts, std::string_view csv_json,
                           std::span<const std::string> objects, TextPool& pool,
                           std::span<const SharedText> made_csv) {
  append_bundle_head(parts, m_own);
  m_head_size = static_cast<std::uint32_t>(m_own.size());
  auto add_pieces = [&](std::uint32_t field, std::span<const SharedText> pieces) {
    std::size_t size = 0;
    for (const auto& piece : pieces) {
      size += piece->size();
    }
    append_text_header(field, size, m_own);
    for (const auto& piece : pieces) {
      m_text_at.push_back(static_cast<std::uint32_t>(m_own.size()));
      m_texts.push_back(piece);
    }
  };
  auto add_text = [&](std::uint32_t field, std::string_view text) {
    const SharedText shared = pool.share(text);
    add_pieces(field, std::span(&shared, 1));
  };
  if (!csv_json.empty()) {
    add_text(k_csv_json_field, csv_json);
  } else if (!made_csv.empty()) {
    add_pieces(k_csv_json_field, made_csv);
    if (objects.empty()) {
      add_pieces(k_object_field, made_csv);
    }
  }
  for (const auto& object : objects) {
    add_text(k_object_field, object);
  }
  append_bundle_tail(parts, m_own);
  m_deprecation_at = static_cast<std::uint32_t>(m_own.size());
  append_bundle_deprecation(parts, m_own);
  m_own.shrink_to_fit();
  m_text_at.shrink_to_fit();
  m_texts.shrink_to_fit();
}

void StoredBundle::append_listing(std::string& out, bool with_manifests, std::string_view replaces,
                                  std::span<const std::string> skips) const {
  const std::string_view own = m_own;
  const std::size_t tail = m_text_at.empty() ? m_head_size : m_text_at.back();
  if (with_manifests) {
    std::size_t from = 0;
    for (std::size_t i = 0; i < m_texts.size(); ++i) {
      out.append(own.substr(from, m_text_at[i] - from));
      out.append(*m_texts[i]);
      from = m_text_at[i];
    }
  } else {
    out.append(own.substr(0, m_head_size));
  }
  out.append(own.substr(tail, m_deprecation_at - tail));
  append_bundle_edges(replaces, skips, out);
  out.append(own.substr(m_deprecation_at));
}

void StoredBundle::append_pieces(std::vector<std::string_view>& out) const {
  const std::string_view own = m_own;
  std::size_t from = 0;
  for (std::size_t i = 0; i < m_texts.size(); ++i) {
    out.push_back(own.substr(from, m_text_at[i] - from));
    out.push_back(*m_texts[i]);
    from = m_text_at[i];
  }
  out.push_back(own.substr(from));
}

std::string StoredBundle::bytes() const {
  std::vector<std::string_view> pieces;
  append_pieces(pieces);
  std::string out;
  for (auto piece : pieces) {
    out.append(piece);
  }
  return out;
}

void StoredBundle::decode(api::Bundle& out) const { out.ParseFromString(bytes()); }

} // namespace opm::serve
