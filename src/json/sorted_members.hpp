#pragma once

#include <algorithm>
#include <compare>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace opm::json {

// An object's members as one sorted array: the map type of our JSON values. It keeps
// std::map's order and interface (what nlohmann::basic_json and our code use of it), but
// holds the members side by side: one allocation an object instead of one a member, and
// walks that follow memory. A member added after the last key (the usual case: decoders
// meet keys in order, as opm writes them sorted) is appended; any other is inserted in
// place. Decoders build each object at once with take_members(), in O(n log n) whatever the
// order of its keys. The fourth parameter, the allocator nlohmann names, is not used.
template <class Key, class T, class Compare = std::less<>, class Ignored = void>
class SortedMembers {
public:
  using key_type = Key;
  using mapped_type = T;
  using value_type = std::pair<Key, T>;
  using key_compare = Compare;
  using storage = std::vector<value_type>;
  using size_type = typename storage::size_type;
  using difference_type = typename storage::difference_type;
  using reference = value_type&;
  using const_reference = const value_type&;
  using iterator = typename storage::iterator;
  using const_iterator = typename storage::const_iterator;
  using reverse_iterator = typename storage::reverse_iterator;
  using const_reverse_iterator = typename storage::const_reverse_iterator;
  using allocator_type = typename storage::allocator_type;

  SortedMembers() = default;
  explicit SortedMembers(const allocator_type&) {}
  SortedMembers(std::initializer_list<value_type> members)
      : SortedMembers(members.begin(), members.end()) {}
  template <class InputIt> SortedMembers(InputIt first, InputIt last) { insert(first, last); }

  iterator begin() noexcept { return m_members.begin(); }
  iterator end() noexcept { return m_members.end(); }
  const_iterator begin() const noexcept { return m_members.begin(); }
  const_iterator end() const noexcept { return m_members.end(); }
  const_iterator cbegin() const noexcept { return m_members.cbegin(); }
  const_iterator cend() const noexcept { return m_members.cend(); }
  reverse_iterator rbegin() noexcept { return m_members.rbegin(); }
  reverse_iterator rend() noexcept { return m_members.rend(); }
  const_reverse_iterator rbegin() const noexcept { return m_members.rbegin(); }
  const_reverse_iterator rend() const noexcept { return m_members.rend(); }

  [[nodiscard]] bool empty() const noexcept { return m_members.empty(); }
  size_type size() const noexcept { return m_members.size(); }
  size_type max_size() const noexcept { return m_members.max_size(); }
  void clear() noexcept { m_members.clear(); }
  void reserve(size_type n) { m_members.reserve(n); }
  key_compare key_comp() const { return key_compare{}; }

  template <class K> iterator lower_bound(const K& key) {
    return std::lower_bound(begin(), end(), key, KeyBefore{});
  }
  template <class K> const_iterator lower_bound(const K& key) const {
    return std::lower_bound(begin(), end(), key, KeyBefore{});
  }
  template <class K> iterator upper_bound(const K& key) {
    return std::upper_bound(begin(), end(), key, KeyAfter{});
  }
  template <class K> const_iterator upper_bound(const K& key) const {
    return std::upper_bound(begin(), end(), key, KeyAfter{});
  }
  template <class K> iterator find(const K& key) {
    auto it = lower_bound(key);
    return it != end() && !Compare{}(key, it->first) ? it : end();
  }
  template <class K> const_iterator find(const K& key) const {
    auto it = lower_bound(key);
    return it != end() && !Compare{}(key, it->first) ? it : end();
  }
  template <class K> size_type count(const K& key) const { return find(key) == end() ? 0 : 1; }
  template <class K> bool contains(const K& key) const { return find(key) != end(); }
  template <class K> std::pair<iterator, iterator> equal_range(const K& key) {
    auto it = find(key);
    return {it, it == end() ? it : std::next(it)};
  }

  template <class K> T& at(const K& key) {
    auto it = find(key);
    if (it == end()) {
      throw std::out_of_range("key not found");
    }
    return it->second;
  }
  template <class K> const T& at(const K& key) const {
    auto it = find(key);
    if (it == end()) {
      throw std::out_of_range("key not found");
    }
    return it->second;
  }

  T& operator[](const Key& key) { return try_emplace(key).first->second; }
  T& operator[](Key&& key) { return try_emplace(std::move(key)).first->second; }

  template <class K, class... Args> std::pair<iterator, bool> try_emplace(K&& key, Args&&... args) {
    auto at = place_of(key);
    if (at != end() && !Compare{}(key, at->first)) {
      return {at, false};
    }
    at =
        m_members.emplace(at, std::piecewise_construct, std::forward_as_tuple(std::forward<K>(key)),
                          std::forward_as_tuple(std::forward<Args>(args)...));
    return {at, true};
  }
  template <class K, class... Args> iterator try_emplace(const_iterator, K&& key, Args&&... args) {
    return try_emplace(std::forward<K>(key), std::forward<Args>(args)...).first;
  }
  template <class K, class V> std::pair<iterator, bool> emplace(K&& key, V&& value) {
    return try_emplace(std::forward<K>(key), std::forward<V>(value));
  }
  std::pair<iterator, bool> emplace(value_type&& member) {
    return try_emplace(std::move(member.first), std::move(member.second));
  }
  template <class K, class V> iterator emplace_hint(const_iterator, K&& key, V&& value) {
    return try_emplace(std::forward<K>(key), std::forward<V>(value)).first;
  }
  std::pair<iterator, bool> insert(const value_type& member) {
    return try_emplace(member.first, member.second);
  }
  std::pair<iterator, bool> insert(value_type&& member) {
    return try_emplace(std::move(member.first), std::move(member.second));
  }
  template <class InputIt> void insert(InputIt first, InputIt last) {
    for (; first != last; ++first) {
      try_emplace(first->first, first->second);
    }
  }
  template <class K, class V> std::pair<iterator, bool> insert_or_assign(K&& key, V&& value) {
    auto [at, added] = try_emplace(std::forward<K>(key), std::forward<V>(value));
    if (!added) {
      at->second = std::forward<V>(value);
    }
    return {at, added};
  }
  template <class K, class V> iterator insert_or_assign(const_iterator, K&& key, V&& value) {
    return insert_or_assign(std::forward<K>(key), std::forward<V>(value)).first;
  }

  iterator erase(const_iterator at) { return m_members.erase(at); }
  iterator erase(iterator at) { return m_members.erase(at); }
  iterator erase(const_iterator first, const_iterator last) { return m_members.erase(first, last); }
  template <class K>
  requires(!std::is_convertible_v<K, const_iterator>) size_type erase(const K& key) {
    auto it = find(key);
    if (it == end()) {
      return 0;
    }
    m_members.erase(it);
    return 1;
  }

  void swap(SortedMembers& other) noexcept { m_members.swap(other.m_members); }

  // Replace the members with those of `scratch`, in any order; of equal keys the last one
  // stays (Go's decoding into a map). They are moved into an array of their exact size, and
  // `scratch` is left empty for the next object a decoder reads, keeping its room unless that
  // is over 1024 members. Returns how many members were dropped as duplicates. O(n log n)
  // where adding them one by one could be O(n²).
  size_type take_members(storage& scratch) {
    size_type dropped = 0;
    if (!strictly_sorted(scratch)) {
      dropped = sort_keeping_last(scratch);
    }
    storage exact;
    exact.reserve(scratch.size());
    std::move(scratch.begin(), scratch.end(), std::back_inserter(exact));
    scratch.clear();
    if (scratch.capacity() > k_scratch_kept) {
      storage().swap(scratch); // a rare wide object's room is not held for the next ones
    }
    m_members.swap(exact);
    return dropped;
  }

  friend bool operator==(const SortedMembers& a, const SortedMembers& b) {
    return a.m_members == b.m_members;
  }
  friend auto operator<=>(const SortedMembers& a, const SortedMembers& b) {
    return a.m_members <=> b.m_members;
  }

private:
  static constexpr size_type k_scratch_kept = 1024;

  struct KeyBefore {
    template <class K> bool operator()(const value_type& member, const K& key) const {
      return Compare{}(member.first, key);
    }
  };
  struct KeyAfter {
    template <class K> bool operator()(const K& key, const value_type& member) const {
      return Compare{}(key, member.first);
    }
  };

  static bool strictly_sorted(const storage& members) {
    for (size_type i = 1; i < members.size(); ++i) {
      if (!Compare{}(members[i - 1].first, members[i].first)) {
        return false;
      }
    }
    return true;
  }

  static size_type sort_keeping_last(storage& members) {
    std::stable_sort(members.begin(), members.end(), [](const value_type& a, const value_type& b) {
      return Compare{}(a.first, b.first);
    });
    auto kept = members.begin();
    for (auto it = std::next(kept); it != members.end(); ++it) {
      if (Compare{}(kept->first, it->first)) {
        ++kept;
      }
      if (kept != it) {
        *kept = std::move(*it); // a later duplicate replaces the earlier one
      }
    }
    const auto dropped = static_cast<size_type>(std::distance(std::next(kept), members.end()));
    members.erase(std::next(kept), members.end());
    return dropped;
  }

  // Where `key` belongs: the end when it sorts after the last key, without a search.
  template <class K> iterator place_of(const K& key) {
    if (m_members.empty() || Compare{}(m_members.back().first, key)) {
      return end();
    }
    return lower_bound(key);
  }

  storage m_members;
};

} // namespace opm::json
