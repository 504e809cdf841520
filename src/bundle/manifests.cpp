#include "bundle/manifests.hpp"

#include "bundle/document.hpp"
#include "catalog/write.hpp"
#include "json/value.hpp"
#include "json/writer.hpp"
#include "util/fs.hpp"

#include <cmath>
#include <limits>

namespace opm::bundle {

namespace {

constexpr std::string_view k_csv_kind = "ClusterServiceVersion";
constexpr std::string_view k_crd_kind = "CustomResourceDefinition";

// The kind as Kubernetes' GroupVersionKind() reports it: empty when apiVersion does not parse.
std::string gvk_kind(const Json& obj, std::optional<GroupVersion>& gv) {
  gv = parse_group_version(json::string_member_or_empty(obj, "apiVersion"));
  return gv ? json::string_member_or_empty(obj, "kind") : std::string();
}

struct Candidate {
  Json value;
  bool from_yaml;
};

std::optional<Candidate> read_object(const std::filesystem::path& file) {
  auto content = util::read_regular(file);
  if (!content) {
    return std::nullopt;
  }
  auto doc = read_first_document(*content);
  if (!doc || !doc->value.is_object() || json::string_member_or_empty(doc->value, "kind").empty()) {
    return std::nullopt;
  }
  return Candidate{std::move(doc->value), doc->syntax == Syntax::yaml};
}

} // namespace

void normalize_object_numbers(Json& value, bool from_yaml) {
  switch (value.type()) {
  case Json::value_t::object:
  case Json::value_t::array:
    for (auto& item : value) {
      normalize_object_numbers(item, from_yaml);
    }
    break;
  case Json::value_t::number_unsigned:
    if (value.get<unsigned long long>() >
        static_cast<unsigned long long>(std::numeric_limits<long long>::max())) {
      value = value.get<double>();
    }
    break;
  case Json::value_t::number_float:
    if (from_yaml && value.get<double>() == 0.0 && std::signbit(value.get<double>())) {
      value = 0;
    }
    break;
  default:
    break;
  }
}

Result<Manifests> read_manifests(const std::filesystem::path& dir) {
  auto entries = OPM_TRY(util::sorted_entries(dir));
  Manifests out;
  std::vector<Json> objects;
  bool csv_found = false;
  for (const auto& entry : entries) {
    if (entry.is_dir || entry.name.starts_with('.')) {
      continue;
    }
    auto candidate = read_object(dir / entry.name);
    if (!candidate) {
      continue;
    }
    if (json::string_member_or_empty(candidate->value, "kind") == k_csv_kind) {
      if (csv_found) {
        continue;
      }
      csv_found = true;
    }
    normalize_object_numbers(candidate->value, candidate->from_yaml);
    out.object_json.push_back(json::to_text(candidate->value, {.indent = 0, .escape_html = true}));
    objects.push_back(std::move(candidate->value));
  }
  if (objects.empty()) {
    return util::fail(Errc::invalid, "no bundle objects found");
  }

  std::optional<std::size_t> csv_index;
  for (std::size_t i = 0; i < objects.size() && !csv_index; ++i) {
    std::optional<GroupVersion> gv;
    if (gvk_kind(objects[i], gv) == k_csv_kind) {
      out.csv = OPM_TRY(csv_from_object(objects[i], out.object_json[i]));
      csv_index = i;
    }
  }
  for (const auto& object : objects) {
    std::optional<GroupVersion> gv;
    if (gvk_kind(object, gv) != k_crd_kind) {
      continue;
    }
    auto apis = OPM_TRY(crd_apis(object, gv->version));
    out.crd_apis.insert(out.crd_apis.end(), apis.begin(), apis.end());
  }
  if (!csv_index) {
    return util::fail(Errc::invalid, "no csv in bundle");
  }
  out.csv_index = *csv_index;
  return out;
}

} // namespace opm::bundle
