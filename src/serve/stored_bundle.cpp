#include "serve/stored_bundle.hpp"

#include "serve/bundle_wire.hpp"
#include "util/scratch_heap.hpp"

#include <algorithm>
#include <functional>

namespace opm::serve {

namespace {

std::string text_header(std::uint32_t number, std::size_t size) {
  std::string out;
  append_text_header(number, size, out);
  return out;
}

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

const std::string& MadeText::text() const {
  std::call_once(m_made, [this] {
    std::string made = make();
    // Kept for the server's life: out of a load's scratch heap, should one be made there.
    const util::KeptHeap kept;
    m_text = kept.keep(std::move(made));
    m_csv_json_header = kept.keep(text_header(k_csv_json_field, m_text.size()));
    m_object_header = kept.keep(text_header(k_object_field, m_text.size()));
  });
  return m_text;
}

std::string_view MadeText::header(std::uint32_t number) const {
  static_cast<void>(text()); // the headers are made with the text
  return number == k_csv_json_field ? m_csv_json_header : m_object_header;
}

StoredBundle::StoredBundle(const BundleParts& parts, std::string_view csv_json,
                           std::span<const std::string> objects, TextPool& pool,
                           std::shared_ptr<const MadeText> made_csv) {
  append_bundle_head(parts, m_own);
  m_head_size = static_cast<std::uint32_t>(m_own.size());
  auto add_text = [&](std::uint32_t field, std::string_view text) {
    append_text_header(field, text.size(), m_own);
    m_inserts.push_back({.at = static_cast<std::uint32_t>(m_own.size()), .kept = pool.share(text)});
  };
  auto add_made = [&](std::uint32_t field) {
    m_inserts.push_back(
        {.at = static_cast<std::uint32_t>(m_own.size()), .made_field = field, .kept = nullptr});
  };
  if (!csv_json.empty()) {
    add_text(k_csv_json_field, csv_json);
  } else if (made_csv != nullptr) {
    m_made = std::move(made_csv);
    add_made(k_csv_json_field);
    if (objects.empty()) {
      add_made(k_object_field);
    }
  }
  for (const auto& object : objects) {
    add_text(k_object_field, object);
  }
  append_bundle_tail(parts, m_own);
  m_deprecation_at = static_cast<std::uint32_t>(m_own.size());
  append_bundle_deprecation(parts, m_own);
  m_own.shrink_to_fit();
  m_inserts.shrink_to_fit();
}

std::uint32_t StoredBundle::texts_end() const {
  return m_inserts.empty() ? m_head_size : m_inserts.back().at;
}

void StoredBundle::append_through_texts(std::string& out) const {
  const std::string_view own = m_own;
  std::size_t from = 0;
  for (const Insert& insert : m_inserts) {
    out.append(own.substr(from, insert.at - from));
    if (insert.kept != nullptr) {
      out.append(*insert.kept);
    } else {
      out.append(m_made->header(insert.made_field));
      out.append(m_made->text());
    }
    from = insert.at;
  }
  out.append(own.substr(from, texts_end() - from));
}

void StoredBundle::append_listing(std::string& out, bool with_manifests, std::string_view replaces,
                                  std::span<const std::string> skips) const {
  const std::string_view own = m_own;
  const std::size_t tail = texts_end();
  if (with_manifests) {
    append_through_texts(out);
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
  for (const Insert& insert : m_inserts) {
    if (insert.kept != nullptr) {
      out.push_back(own.substr(from, insert.at - from));
      out.push_back(*insert.kept);
    } else {
      out.push_back(own.substr(from, insert.at - from));
      out.push_back(m_made->header(insert.made_field));
      out.push_back(m_made->text());
    }
    from = insert.at;
  }
  out.push_back(own.substr(from));
}

std::string StoredBundle::bytes() const {
  std::string out;
  append_through_texts(out);
  out.append(std::string_view(m_own).substr(texts_end()));
  return out;
}

void StoredBundle::decode(api::Bundle& out) const { out.ParseFromString(bytes()); }

} // namespace opm::serve
