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

// apimachinery's yaml.ToJSON: text that starts with '{' is taken as JSON, as is and
// unchecked; anything else is YAML, converted to JSON.
Result<std::string> to_object_json(std::string&& data) {
  if (starts_with_brace(data)) {
    return std::move(data);
  }
  return to_json(OPM_TRY(yaml_to_json(data)));
}

// The top-level "kind" of an object's JSON text ("" when it is not a valid JSON object).
std::string object_kind(const std::string& json) {
  KindFinder finder;
  if (!Json::sax_parse(json, &finder, nlohmann::json::input_format_t::json, false)) {
    return {};
  }
  return finder.kind();
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
    auto object = to_object_json(std::move(data));
    if (!object) {
      return failure(i, "convert bundle object property", object.error());
    }
    bundle.objects.push_back(std::move(*object));
  }
  // upstream's extractCSV: the first object whose kind is ClusterServiceVersion.
  for (const auto& object : bundle.objects) {
    if (object_kind(object) == "ClusterServiceVersion") {
      bundle.csv_json = object;
      break;
    }
  }
  return {};
}

} // namespace opm::catalog
