#pragma once

#include "json/value.hpp"

#include <cstddef>
#include <deque>

namespace opm::json {

// A decoder's members read so far of the object open at each depth (1-based), handed to
// SortedMembers::take_members when the object ends, so that each object is allocated once, at
// its size. One per document: blocks kept from one document to the next would pin the pages
// of a server's scratch heaps. A depth's array stays where it is as deeper ones are added.
class PendingMembers {
public:
  Json::object_t::storage& at(std::size_t depth) {
    while (m_by_depth.size() < depth) {
      m_by_depth.emplace_back();
    }
    return m_by_depth[depth - 1];
  }

private:
  std::deque<Json::object_t::storage> m_by_depth;
};

} // namespace opm::json
