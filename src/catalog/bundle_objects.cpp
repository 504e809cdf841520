#include "catalog/bundle_objects.hpp"

#include "catalog/decode.hpp"
#include "catalog/typed_decode.hpp"
#include "catalog/write.hpp"
#include "json/kind.hpp"
#include "json/unmarshal.hpp"
#include "json/writer.hpp"
#include "util/base64.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

namespace opm::catalog {

namespace {

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
  return json::to_text(OPM_TRY(yaml_to_json(data)));
}

constexpr std::string_view k_csv_kind = "ClusterServiceVersion";

// Whether `json` holds a \u escape of an ASCII letter, with which a string could spell a word
// that the text does not hold as such. Other escapes (Go's \u003c for '<', say) cannot.
bool has_letter_escape(std::string_view json) {
  for (std::size_t at = json.find("\\u"); at != std::string_view::npos;
       at = json.find("\\u", at + 2)) {
    std::string_view hex = json.substr(at + 2, 4);
    if (hex.size() < 4) {
      return true;
    }
    unsigned code = 0;
    for (char c : hex) {
      int digit = util::hex_digit_value(c);
      if (digit < 0) {
        return true;
      }
      code = code * 16 + static_cast<unsigned>(digit);
    }
    if (((code | 0x20U) - static_cast<unsigned>('a')) < 26) {
      return true;
    }
  }
  return false;
}

// Whether an object's JSON text is a valid JSON object whose top-level "kind" is
// ClusterServiceVersion. Text that holds neither that word nor an escape that could spell one of
// its letters cannot be one, which spares parsing every large CRD.
bool is_csv_object(std::string_view json) {
  if (json.find(k_csv_kind) == std::string_view::npos && !has_letter_escape(json)) {
    return false;
  }
  return json::object_kind(json) == k_csv_kind;
}

} // namespace

Result<void> read_bundle_objects(Bundle& bundle, KeepObjects keep, ObjectData object_data) {
  auto failure = [&](std::size_t i, std::string_view what, const Error& cause) {
    return util::fail(Errc::invalid,
                      fmt::format("package {}, bundle {}: {} at index {}{}: {}",
                                  util::go_quote(bundle.package), util::go_quote(bundle.name), what,
                                  i, what == "parse property" ? " as bundle object" : "",
                                  cause.message()));
  };
  for (std::size_t i = 0; i < bundle.properties.size(); ++i) {
    Property& prop = bundle.properties[i];
    if (prop.type != k_prop_bundle_object) {
      continue;
    }
    std::string data;
    Json& value = prop.value;
    if (!value.is_null() && !value.is_object()) {
      return failure(i, "parse property",
                     Error(Errc::invalid, json::type_error(json::kind_name(value), "", "",
                                                           "property.BundleObject")));
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
          return failure(i, "parse property",
                         Error(Errc::invalid, json::type_error(json::kind_name(d), "BundleObject",
                                                               "data", "[]uint8")));
        }
        auto bytes = util::base64_decode(d.get_ref<const std::string&>());
        if (!bytes) {
          return failure(i, "parse property", bytes.error());
        }
        data = std::move(*bytes);
        if (object_data == ObjectData::release) {
          std::string().swap(it.value().get_ref<std::string&>());
        }
      }
    }
    auto object = to_object_json(std::move(data));
    if (!object) {
      return failure(i, "convert bundle object property", object.error());
    }
    if (keep == KeepObjects::csv_only) {
      if (bundle.csv_index || !is_csv_object(*object)) {
        ++bundle.dropped_objects;
        continue;
      }
      bundle.csv_index = bundle.objects.size();
    }
    bundle.objects.push_back(std::move(*object));
  }
  // upstream's extractCSV: the first object whose kind is ClusterServiceVersion.
  for (std::size_t i = 0; !bundle.csv_index && i < bundle.objects.size(); ++i) {
    if (is_csv_object(bundle.objects[i])) {
      bundle.csv_index = i;
      break;
    }
  }
  return {};
}

} // namespace opm::catalog
