#include "json/parse.hpp"

#include <string>
#include <utility>
#include <vector>

namespace opm::json {

namespace {

// nlohmann's SAX events turned into a Json, each object's members collected first.
class ObjectsAtOnce {
public:
  explicit ObjectsAtOnce(bool allow_exceptions) : m_allow_exceptions(allow_exceptions) {}

  bool null() { return add(Json(nullptr)); }
  bool boolean(bool value) { return add(Json(value)); }
  bool number_integer(Json::number_integer_t value) { return add(Json(value)); }
  bool number_unsigned(Json::number_unsigned_t value) { return add(Json(value)); }
  bool number_float(Json::number_float_t value, const Json::string_t&) { return add(Json(value)); }
  bool string(Json::string_t& value) { return add(Json(std::move(value))); }
  bool binary(Json::binary_t& value) { return add(Json::binary(std::move(value))); }

  bool start_object(std::size_t) {
    m_open.push_back(Open{Json(Json::value_t::object), {}, {}});
    return true;
  }
  bool key(Json::string_t& name) {
    m_open.back().key = std::move(name);
    return true;
  }
  bool end_object() {
    Open closed = std::move(m_open.back());
    m_open.pop_back();
    closed.value.get_ref<Json::object_t&>().take_members(closed.members);
    return add(std::move(closed.value));
  }
  bool start_array(std::size_t) {
    m_open.push_back(Open{Json(Json::value_t::array), {}, {}});
    return true;
  }
  bool end_array() {
    Open closed = std::move(m_open.back());
    m_open.pop_back();
    return add(std::move(closed.value));
  }

  template <class Exception> bool parse_error(std::size_t, const std::string&, const Exception& e) {
    m_failed = true;
    if (m_allow_exceptions) {
      throw e;
    }
    return false;
  }

  Json result() && { return m_failed ? Json(Json::value_t::discarded) : std::move(m_root); }

private:
  struct Open {
    Json value;
    Json::object_t::storage members;
    std::string key;
  };

  bool add(Json&& value) {
    if (m_open.empty()) {
      m_root = std::move(value);
      return true;
    }
    Open& top = m_open.back();
    if (top.value.is_object()) {
      top.members.emplace_back(std::move(top.key), std::move(value));
    } else {
      top.value.get_ref<Json::array_t&>().push_back(std::move(value));
    }
    return true;
  }

  bool m_allow_exceptions;
  bool m_failed = false;
  std::vector<Open> m_open;
  Json m_root;
};

} // namespace

Json parse_text(std::string_view text, bool allow_exceptions) {
  ObjectsAtOnce builder(allow_exceptions);
  Json::sax_parse(text, &builder);
  return std::move(builder).result();
}

} // namespace opm::json
