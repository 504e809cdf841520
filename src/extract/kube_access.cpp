#include "extract/kube_access.hpp"

#include "json/value.hpp"
#include "util/base64.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "yaml/document.hpp"

#include <fmt/format.h>

namespace opm::extract {

namespace {

namespace fs = std::filesystem;

const Json& member(const Json& v, std::string_view key) { return json::member_or_null(v, key); }

std::string text(const Json& v, std::string_view key) {
  return json::string_member_or_empty(v, key);
}

// The `field` entry named `name` of a kubeconfig list (clusters, users, contexts).
const Json* named(const Json& config, std::string_view list, std::string_view field,
                  const std::string& name) {
  for (const auto& entry : member(config, list)) {
    if (text(entry, "name") == name) {
      return &member(entry, field);
    }
  }
  return nullptr;
}

// A file named in a kubeconfig, relative to the kubeconfig's directory.
Result<std::string> referenced_file(const fs::path& config_dir, const std::string& name) {
  fs::path path = name;
  if (path.is_relative()) {
    path = config_dir / path;
  }
  return util::read_file(path);
}

// `<name>-data` (base64) or the file `<name>` of a kubeconfig entry.
Result<std::string> inline_or_file(const Json& entry, const std::string& name,
                                   const fs::path& config_dir) {
  std::string data = text(entry, name + "-data");
  if (!data.empty()) {
    auto decoded = util::base64_decode(data);
    if (!decoded) {
      return util::fail(Errc::invalid, fmt::format("{}-data is not valid base64", name));
    }
    return std::move(*decoded);
  }
  std::string file = text(entry, name);
  if (file.empty()) {
    return std::string();
  }
  return referenced_file(config_dir, file);
}

} // namespace

Result<KubeAccess> from_kubeconfig(const fs::path& path) {
  auto content = OPM_TRY(util::read_file(path));
  auto config = yaml::document_to_json(content);
  if (!config) {
    return util::fail(Errc::invalid, fmt::format("{}: {}", path.string(), config.error().message));
  }
  std::string context_name = text(*config, "current-context");
  const Json* context = named(*config, "contexts", "context", context_name);
  if (context_name.empty() || context == nullptr) {
    return util::fail(Errc::invalid, fmt::format("invalid configuration: {}: no current context {}",
                                                 path.string(), util::go_quote(context_name)));
  }
  const Json* cluster = named(*config, "clusters", "cluster", text(*context, "cluster"));
  if (cluster == nullptr || text(*cluster, "server").empty()) {
    return util::fail(Errc::invalid,
                      fmt::format("invalid configuration: {}: no server found for cluster {}",
                                  path.string(), util::go_quote(text(*context, "cluster"))));
  }
  fs::path dir = path.parent_path();
  KubeAccess access;
  access.server = text(*cluster, "server");
  access.insecure = member(*cluster, "insecure-skip-tls-verify") == true;
  access.ca_pem = OPM_TRY(inline_or_file(*cluster, "certificate-authority", dir));
  if (const Json* user = named(*config, "users", "user", text(*context, "user"))) {
    access.token = text(*user, "token");
    if (access.token.empty() && !text(*user, "tokenFile").empty()) {
      access.token =
          std::string(util::trim(OPM_TRY(referenced_file(dir, text(*user, "tokenFile")))));
    }
    access.client_cert = OPM_TRY(inline_or_file(*user, "client-certificate", dir));
    access.client_key = OPM_TRY(inline_or_file(*user, "client-key", dir));
    access.username = text(*user, "username");
    access.password = text(*user, "password");
  }
  return access;
}

Result<KubeAccess> in_cluster(const std::map<std::string, std::string>& env,
                              const fs::path& service_account_dir) {
  auto get = [&env](const std::string& key) {
    auto it = env.find(key);
    return it == env.end() ? std::string() : it->second;
  };
  std::string host = get("KUBERNETES_SERVICE_HOST");
  std::string port = get("KUBERNETES_SERVICE_PORT");
  if (host.empty() || port.empty()) {
    return util::fail(Errc::invalid, "unable to load in-cluster configuration, "
                                     "KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must "
                                     "be defined");
  }
  if (host.find(':') != std::string::npos) {
    host = "[" + host + "]";
  }
  KubeAccess access;
  access.server = fmt::format("https://{}:{}", host, port);
  access.token = std::string(util::trim(OPM_TRY(util::read_file(service_account_dir / "token"))));
  if (auto ca = util::read_file(service_account_dir / "ca.crt")) {
    access.ca_pem = std::move(*ca);
  }
  return access;
}

} // namespace opm::extract
