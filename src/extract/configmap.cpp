#include "extract/configmap.hpp"

#include "bundle/document.hpp"
#include "registry/gzip.hpp"
#include "util/base64.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <array>

namespace opm::extract {

namespace {

constexpr std::array<std::string_view, 6> k_annotation_keys = {
    "operators.operatorframework.io.bundle.manifests.v1",
    "operators.operatorframework.io.bundle.mediatype.v1",
    "operators.operatorframework.io.bundle.metadata.v1",
    "operators.operatorframework.io.bundle.package.v1",
    "operators.operatorframework.io.bundle.channels.v1",
    "operators.operatorframework.io.bundle.channel.default.v1"};

// The six bundle annotations of annotations.yaml, each "" when absent.
Result<Json> bundle_annotations(std::string_view content, const std::string& path) {
  auto doc = bundle::read_first_document(content);
  if (!doc) {
    return util::fail(Errc::invalid, fmt::format("{}: {}", path, doc.error().message()));
  }
  const Json* found = nullptr;
  if (doc->value.is_object()) {
    auto it = doc->value.find("annotations");
    if (it != doc->value.end() && it->is_object()) {
      found = &*it;
    }
  }
  Json out = Json::object();
  for (auto key : k_annotation_keys) {
    std::string value;
    if (found != nullptr) {
      auto it = found->find(key);
      if (it != found->end() && it->is_string()) {
        value = it->get<std::string>();
      } else if (it != found->end() && !it->is_null()) {
        return util::fail(Errc::invalid,
                          fmt::format("{}: annotation {} is not a string", path, key));
      }
    }
    out[std::string(key)] = value;
  }
  return out;
}

} // namespace

std::string configmap_key(std::string_view file_name) {
  std::string key(file_name);
  for (char& c : key) {
    bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '-' || c == '_' || c == '.';
    if (!allowed) {
      c = '-';
    }
  }
  return key;
}

Result<void> populate_configmap(const ExtractRequest& request, KubeApi& api,
                                const ExtractLog& log) {
  Json configmap = OPM_TRY(api.get_configmap(request.ns, request.configmap));
  Json data = Json::object();
  Json binary = Json::object();
  std::optional<Json> annotations;
  std::uint64_t total = 0;
  for (std::string_view sub : {"manifests/", "metadata/"}) {
    std::string dir = request.bundle_dir + std::string(sub);
    auto files = util::sorted_entries(dir);
    if (!files) {
      log("error", "read dir failed: " + files.error().message(), {});
      return std::unexpected(std::move(files).error());
    }
    for (const auto& file : *files) {
      std::string path = dir + file.name;
      std::vector<util::LogField> at{{"file", path}};
      log("info", "Reading file", at);
      auto content = util::read_file(path);
      if (!content) {
        log("error", "read failed: " + content.error().message(), at);
        return std::unexpected(std::move(content).error());
      }
      if (file.name == "annotations.yaml") {
        // Annotations have their own size limit on the server; they are not data.
        annotations = OPM_TRY(bundle_annotations(*content, path));
        continue;
      }
      std::string value = std::move(*content);
      if (request.gzip) {
        value = util::base64_encode(OPM_TRY(registry::gzip_bytes(value)));
      }
      total += value.size();
      if (total > request.data_limit) {
        log("error", fmt::format("Bundle files exceeded {} bytes limit", request.data_limit), at);
        return util::fail(Errc::invalid,
                          fmt::format("bundle files exceeded {} bytes limit", request.data_limit));
      }
      std::string key = configmap_key(file.name);
      if (key != file.name) {
        log("info", "translated filename for configmap compatibility",
            {{"file.Name", file.name}, {"validConfigMapKey", key}});
      }
      if (request.gzip) {
        binary[key] = util::base64_encode(value);
      } else {
        data[key] = std::move(value);
      }
    }
  }
  Json& metadata = configmap["metadata"];
  bool annotations_ok = metadata.is_object() &&
                        (!metadata.contains("annotations") || metadata["annotations"].is_object() ||
                         metadata["annotations"].is_null());
  if (!annotations_ok) {
    return util::fail(Errc::network, fmt::format("configmaps {}: the server's object has no "
                                                 "metadata or annotations object",
                                                 util::go_quote(request.configmap)));
  }
  if (annotations) {
    metadata["annotations"] = std::move(*annotations);
  }
  if (!request.source_image.empty()) {
    metadata["annotations"]["olm.sourceImage"] = request.source_image;
  }
  if (request.gzip) {
    metadata["annotations"]["olm.contentEncoding"] = "gzip+base64";
  }
  configmap.erase("data");
  configmap.erase("binaryData");
  if (!data.empty()) {
    configmap["data"] = std::move(data);
  }
  if (!binary.empty()) {
    configmap["binaryData"] = std::move(binary);
  }
  return api.update_configmap(request.ns, request.configmap, configmap);
}

} // namespace opm::extract
