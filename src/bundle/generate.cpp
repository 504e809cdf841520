#include "bundle/generate.hpp"

#include "bundle/document.hpp"
#include "json/value.hpp"
#include "util/fs.hpp"
#include "util/go_errors.hpp"
#include "util/strings.hpp"
#include "yaml/document.hpp"
#include "yaml/value.hpp"

#include <fmt/format.h>

namespace opm::bundle {

namespace {

bool is_csv_document(std::string_view content) {
  auto doc = read_first_document(content);
  if (!doc || !doc->value.is_object()) {
    return false;
  }
  auto kind = doc->value.find("kind");
  return kind != doc->value.end() && kind->is_string() && *kind == "ClusterServiceVersion";
}

// Helm's rule for a chart directory: a Chart.yaml that parses and names the chart.
bool is_chart_dir(const std::filesystem::path& dir) {
  auto content = util::read_file(dir / "Chart.yaml");
  if (!content) {
    return false;
  }
  auto doc = yaml::document_to_json(*content);
  if (!doc || !doc->is_object()) {
    return false;
  }
  auto name = doc->find("name");
  return name != doc->end() && name->is_string() && !name->get<std::string>().empty();
}

} // namespace

Result<std::string> detect_media_type(const std::filesystem::path& dir, std::string_view shown) {
  std::string named = shown.empty() ? dir.string() : std::string(shown);
  auto entries = util::sorted_entries(dir);
  bool any_file = false;
  bool csv = false;
  for (const auto& entry : entries ? *entries : std::vector<util::DirEntry>{}) {
    if (entry.is_dir) {
      continue;
    }
    // A link to a directory counts as a file that cannot be read, as upstream.
    any_file = true;
    auto content = util::read_regular(dir / entry.name);
    if (!content) {
      return util::fail(Errc::io,
                        fmt::format("Unable to read file {}/{} in bundle", named, entry.name));
    }
    csv = csv || is_csv_document(*content);
  }
  if (!any_file) {
    return util::fail(Errc::invalid, fmt::format("The directory {} contains no yaml files", named));
  }
  if (is_chart_dir(dir)) {
    return std::string(k_helm_type);
  }
  return std::string(csv ? k_registry_v1_type : k_plain_type);
}

std::vector<std::pair<std::string, std::string>> label_pairs(const BundleLabels& labels) {
  std::vector<std::pair<std::string, std::string>> pairs{
      {std::string(k_mediatype_label), labels.media_type},
      {std::string(k_manifests_label), "manifests/"},
      {std::string(k_metadata_label), "metadata/"},
      {std::string(k_package_label), labels.package},
      {std::string(k_channels_label), labels.channels}};
  if (!labels.default_channel.empty()) {
    pairs.emplace_back(std::string(k_default_channel_label), labels.default_channel);
  }
  return pairs;
}

std::string annotations_yaml(const BundleLabels& labels) {
  Json annotations = Json::object();
  for (auto& [key, value] : label_pairs(labels)) {
    annotations[key] = value;
  }
  std::string out;
  yaml::append(out, Json{{"annotations", std::move(annotations)}});
  return out;
}

std::string bundle_dockerfile(const BundleLabels& labels, std::string_view base_image,
                              std::string_view manifests_source, std::string_view metadata_source) {
  std::string text = fmt::format("FROM {}\n\n", base_image);
  for (const auto& [key, value] : label_pairs(labels)) {
    text += fmt::format("LABEL {}={}\n", key, value);
  }
  // Upstream ends the label block with a blank line only after the default channel.
  if (!labels.default_channel.empty()) {
    text += "\n";
  }
  text += fmt::format("COPY {} /manifests/\n", manifests_source);
  text += fmt::format("COPY {} /metadata/\n", metadata_source);
  return text;
}

Result<void> check_existing_annotations(std::string_view existing, const BundleLabels& expected) {
  auto doc = yaml::document_to_json(existing);
  if (!doc) {
    return util::fail(Errc::invalid, doc.error().message);
  }
  const Json* found = nullptr;
  if (doc->is_object()) {
    auto it = doc->find("annotations");
    if (it != doc->end() && it->is_object()) {
      found = &*it;
    }
  }
  auto pairs = label_pairs(expected);
  std::sort(pairs.begin(), pairs.end());
  std::vector<std::string> problems;
  for (const auto& [label, value] : pairs) {
    auto it = found != nullptr ? found->find(label) : Json::const_iterator{};
    if (found == nullptr || it == found->end()) {
      problems.push_back("Missing field: " + label);
      continue;
    }
    std::string actual = it->is_string() ? it->get<std::string>() : it->dump();
    if (actual != value) {
      problems.push_back(fmt::format("Expect field {} to have value {} instead of {}",
                                     util::go_quote(label), util::go_quote(value),
                                     util::go_quote(actual)));
    }
  }
  if (problems.empty()) {
    return {};
  }
  return util::fail(Errc::invalid, util::aggregate_text(problems));
}

} // namespace opm::bundle
