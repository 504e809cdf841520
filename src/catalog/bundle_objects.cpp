#include "catalog/bundle_objects.hpp"

#include "catalog/decode.hpp"
#include "catalog/typed_decode.hpp"
#include "catalog/write.hpp"
#include "util/base64.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

namespace opm::catalog {

namespace {

// Checks JSON syntax without building a tree, and notes the top-level "kind".
class KindFinder : public nlohmann::json_sax<Json> {
public:
  bool null() override { return value(nullptr); }
  bool boolean(bool) override { return value(nullptr); }
  bool number_integer(number_integer_t) override { return value(nullptr); }
  bool number_unsigned(number_unsigned_t) override { return value(nullptr); }
  bool number_float(number_float_t, const string_t&) override { return value(nullptr); }
  bool string(string_t& s) override { return value(&s); }
  bool binary(binary_t&) override { return value(nullptr); }
  bool start_object(std::size_t) override {
    m_at_kind = false;
    ++m_depth;
    return true;
  }
  bool key(string_t& k) override {
    m_at_kind = m_depth == 1 && k == "kind";
    return true;
  }
  bool end_object() override {
    --m_depth;
    return true;
  }
  bool start_array(std::size_t) override {
    m_at_kind = false;
    ++m_depth;
    return true;
  }
  bool end_array() override {
    --m_depth;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }
  [[nodiscard]] const std::string& kind() const { return m_kind; }

private:
  bool value(const string_t* s) {
    if (m_at_kind && s != nullptr) {
      m_kind = *s;
    }
    m_at_kind = false;
    return true;
  }
  int m_depth = 0;
  bool m_at_kind = false;
  std::string m_kind;
};

bool starts_with_brace(std::string_view text) {
  for (char c : text) {
    if (!util::is_space(static_cast<unsigned char>(c))) {
      return c == '{';
    }
  }
  return false;
}

struct Object {
  std::string json;
  std::string kind;
};

// sigs.k8s.io/yaml.ToJSON of the data. Well-formed JSON (the common case: objects
// rendered by opm) is kept as written; anything else goes through the YAML path.
Result<Object> to_object(std::string&& data) {
  if (starts_with_brace(data)) {
    KindFinder finder;
    if (Json::sax_parse(data, &finder, nlohmann::json::input_format_t::json, false)) {
      return Object{std::move(data), finder.kind()};
    }
  }
  auto value = OPM_TRY(yaml_to_json(data));
  Object obj;
  if (value.is_object()) {
    auto it = value.find("kind");
    if (it != value.end() && it->is_string()) {
      obj.kind = it->get<std::string>();
    }
  }
  obj.json = to_json(value);
  return obj;
}

} // namespace

Result<void> read_bundle_objects(Bundle& bundle) {
  auto failure = [&](std::size_t i, std::string_view what, const Error& cause) {
    return util::fail(Errc::invalid,
                      fmt::format("package {}, bundle {}: {} at index {}{}: {}",
                                  util::go_quote(bundle.package), util::go_quote(bundle.name), what,
                                  i, what == "parse property" ? " as bundle object" : "",
                                  cause.message()));
  };
  for (std::size_t i = 0; i < bundle.properties.size(); ++i) {
    const Property& prop = bundle.properties[i];
    if (prop.type != k_prop_bundle_object) {
      continue;
    }
    std::string data;
    const Json& value = prop.value;
    if (!value.is_null() && !value.is_object()) {
      return failure(i, "parse property", go_type_error(value, "", "", "property.BundleObject"));
    }
    if (value.is_object()) {
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!util::equal_fold(it.key(), "data")) {
          continue;
        }
        const Json& d = it.value();
        if (d.is_null()) {
          data.clear();
          continue;
        }
        if (!d.is_string()) {
          return failure(i, "parse property", go_type_error(d, "BundleObject", "data", "[]uint8"));
        }
        auto bytes = util::base64_decode(d.get_ref<const std::string&>());
        if (!bytes) {
          return failure(i, "parse property", bytes.error());
        }
        data = std::move(*bytes);
      }
    }
    auto object = to_object(std::move(data));
    if (!object) {
      return failure(i, "convert bundle object property", object.error());
    }
    if (bundle.csv_json.empty() && object->kind == "ClusterServiceVersion") {
      bundle.csv_json = object->json;
    }
    bundle.objects.push_back(std::move(object->json));
  }
  return {};
}

} // namespace opm::catalog
