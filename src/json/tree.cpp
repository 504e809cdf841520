#include "json/tree.hpp"

#include <utility>

namespace opm::json {

Json deep_copy(const Json& source) {
  if (!source.is_structured()) {
    return source;
  }
  auto shell = [](const Json& v) {
    if (v.is_object()) {
      return Json(Json::value_t::object);
    }
    if (v.is_array()) {
      return Json(Json::value_t::array);
    }
    return v;
  };
  Json root = shell(source);
  std::vector<std::pair<const Json*, Json*>> work{{&source, &root}};
  while (!work.empty()) {
    auto [from, to] = work.back();
    work.pop_back();
    if (from->is_object()) {
      const auto& members = from->get_ref<const Json::object_t&>();
      auto& object = to->get_ref<Json::object_t&>();
      object.reserve(members.size());
      for (const auto& [key, child] : members) {
        object.emplace(key, shell(child));
      }
      // Pointers to the copies are taken once every member is in: adding a member can move
      // the others. Both objects hold the same keys, in the same (sorted) order.
      auto copy = object.begin();
      for (const auto& [key, child] : members) {
        if (child.is_structured()) {
          work.emplace_back(&child, &copy->second);
        }
        ++copy;
      }
    } else {
      const auto& items = from->get_ref<const Json::array_t&>();
      auto& array = to->get_ref<Json::array_t&>();
      array.reserve(items.size());
      for (const auto& child : items) {
        array.push_back(shell(child));
      }
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].is_structured()) {
          work.emplace_back(&items[i], &array[i]);
        }
      }
    }
  }
  return root;
}

} // namespace opm::json
