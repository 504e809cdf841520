#include "json/value.hpp"

#include <memory>
#include <utility>
#include <vector>

namespace opm::json {

void normalize_numbers(Json& v) {
  switch (v.type()) {
  case Json::value_t::object:
    for (auto& [key, child] : v.get_ref<Json::object_t&>()) {
      if (!child.is_string()) {
        normalize_numbers(child);
      }
    }
    break;
  case Json::value_t::array:
    for (auto& child : v.get_ref<Json::array_t&>()) {
      if (!child.is_string()) {
        normalize_numbers(child);
      }
    }
    break;
  case Json::value_t::number_integer:
    v = static_cast<double>(v.get<std::int64_t>());
    break;
  case Json::value_t::number_unsigned:
    v = static_cast<double>(v.get<std::uint64_t>());
    break;
  default:
    break;
  }
}

const Json& member_or_null(const Json& v, std::string_view key) {
  static const Json k_null;
  if (!v.is_object()) {
    return k_null;
  }
  auto it = v.find(key);
  return it == v.end() ? k_null : *it;
}

std::string string_member_or_empty(const Json& v, std::string_view key) {
  const Json& m = member_or_null(v, key);
  return m.is_string() ? m.get<std::string>() : "";
}

} // namespace opm::json

namespace opm::json {

namespace {

// Down to this depth a value's children are destroyed by recursion. Deeper, they are moved
// onto one stack first, so that a deeply nested document cannot exhaust the thread's stack.
constexpr int k_destroy_recursion_limit = 64;
thread_local int t_destroy_depth = 0;

template <typename Node> void release_node(Node* node) {
  std::allocator<Node> allocator;
  std::allocator_traits<std::allocator<Node>>::destroy(allocator, node);
  std::allocator_traits<std::allocator<Node>>::deallocate(allocator, node, 1);
}

// Moves the children of `array` or `object` (either may be null) onto `stack`, leaving it empty.
void move_children(Json::array_t* array, Json::object_t* object, std::vector<Json>& stack) {
  if (array != nullptr) {
    for (auto& item : *array) {
      stack.push_back(std::move(item));
    }
    array->clear();
  } else if (object != nullptr) {
    for (auto& member : *object) {
      stack.push_back(std::move(member.second));
    }
    object->clear();
  }
}

// Empties a container without recursion: its descendants are destroyed one at a time, each
// once its own children have been moved onto the stack.
void empty_without_recursion(Json::array_t* array, Json::object_t* object) {
  std::vector<Json> stack;
  move_children(array, object, stack);
  while (!stack.empty()) {
    Json item = std::move(stack.back());
    stack.pop_back();
    if (item.is_array()) {
      move_children(&item.get_ref<Json::array_t&>(), nullptr, stack);
    } else if (item.is_object()) {
      move_children(nullptr, &item.get_ref<Json::object_t&>(), stack);
    }
  }
}

} // namespace

} // namespace opm::json

namespace opm::json::detail {

void destroy_container(Json::array_t* items, Json::object_t* members) {
  if (t_destroy_depth >= k_destroy_recursion_limit) {
    empty_without_recursion(items, members);
  }
  ++t_destroy_depth;
  if (items != nullptr) {
    release_node(items);
  } else {
    release_node(members);
  }
  --t_destroy_depth;
}

void destroy_string(Json::string_t* text) { release_node(text); }

void destroy_binary(Json::binary_t* bytes) { release_node(bytes); }

} // namespace opm::json::detail
