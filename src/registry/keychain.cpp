#include "registry/keychain.hpp"

#include "registry/crypto_library.hpp"
#include "registry/reference.hpp"
#include "util/fs.hpp"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <system_error>

namespace opm::registry {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> base64_decode(std::string_view in) {
  std::string clean;
  clean.reserve(in.size());
  for (char c : in) {
    if (c != '\n' && c != '\r' && c != ' ') {
      clean += c;
    }
  }
  if (clean.size() % 4 != 0) {
    return std::nullopt;
  }
  std::string out(clean.size() / 4 * 3, '\0');
  int n = crypto().decode_base64(reinterpret_cast<unsigned char*>(out.data()),
                                 reinterpret_cast<const unsigned char*>(clean.data()),
                                 static_cast<int>(clean.size()));
  if (n < 0) {
    return std::nullopt;
  }
  std::size_t len = static_cast<std::size_t>(n);
  if (clean.ends_with("==")) {
    len -= 2;
  } else if (clean.ends_with('=')) {
    len -= 1;
  }
  out.resize(len);
  return out;
}

// Normalise an auths key to host[:port]: drop the scheme and everything after the first '/'.
std::string key_host(std::string_view key) {
  if (auto sep = key.find("://"); sep != std::string_view::npos) {
    key = key.substr(sep + 3);
  }
  return normalize_registry_host(key.substr(0, key.find('/')));
}

Result<std::optional<Credentials>> entry_credentials(const nlohmann::json& entry,
                                                     const fs::path& file, const std::string& key) {
  if (!entry.is_object()) {
    return std::optional<Credentials>{};
  }
  Credentials c;
  c.source = file.string();
  if (auto it = entry.find("identitytoken"); it != entry.end() && it->is_string()) {
    c.identity_token = it->get<std::string>();
  }
  if (auto it = entry.find("auth");
      it != entry.end() && it->is_string() && !it->get_ref<const std::string&>().empty()) {
    auto decoded = base64_decode(it->get_ref<const std::string&>());
    if (!decoded) {
      return util::fail(Errc::invalid,
                        fmt::format("reading credentials from {}: invalid base64 in the \"auth\" "
                                    "field of \"{}\"",
                                    file.string(), key));
    }
    auto colon = decoded->find(':');
    if (colon == std::string::npos) {
      return util::fail(Errc::invalid,
                        fmt::format("reading credentials from {}: the \"auth\" field of \"{}\" "
                                    "is not user:password",
                                    file.string(), key));
    }
    c.username = decoded->substr(0, colon);
    c.password = decoded->substr(colon + 1);
    while (!c.password.empty() && c.password.back() == '\0') {
      c.password.pop_back();
    }
  } else {
    if (auto u = entry.find("username"); u != entry.end() && u->is_string()) {
      c.username = u->get<std::string>();
    }
    if (auto p = entry.find("password"); p != entry.end() && p->is_string()) {
      c.password = p->get<std::string>();
    }
  }
  if (c.username.empty() && c.password.empty() && c.identity_token.empty()) {
    return std::optional<Credentials>{}; // "{}" marker left by docker login for helpers
  }
  return std::optional<Credentials>{std::move(c)};
}

} // namespace

Keychain::Keychain(const Options& options) : m_options(options) {}

std::vector<fs::path> Keychain::search_order() const {
  std::vector<fs::path> files;
  auto home = m_options.getenv("HOME");
  fs::path docker_config;
  if (auto d = m_options.getenv("DOCKER_CONFIG")) {
    docker_config = fs::path(*d) / "config.json";
  } else if (home) {
    docker_config = fs::path(*home) / ".docker" / "config.json";
  }
  if (auto f = m_options.getenv("REGISTRY_AUTH_FILE"); f && ::access(f->c_str(), R_OK) == 0) {
    files.emplace_back(*f);
  } else if (!docker_config.empty()) {
    files.push_back(docker_config);
  }
  if (auto run = m_options.getenv("XDG_RUNTIME_DIR")) {
    files.push_back(fs::path(*run) / "containers" / "auth.json");
  } else {
    files.push_back(fs::path("/run/containers") / std::to_string(::getuid()) / "auth.json");
  }
  if (auto cfg = m_options.getenv("XDG_CONFIG_HOME")) {
    files.push_back(fs::path(*cfg) / "containers" / "auth.json");
  } else if (home) {
    files.push_back(fs::path(*home) / ".config" / "containers" / "auth.json");
  }
  if (!docker_config.empty()) {
    files.push_back(docker_config);
  }
  if (home) {
    files.push_back(fs::path(*home) / ".dockercfg");
  }
  return files;
}

Result<std::optional<Credentials>> Keychain::lookup(const std::string& host,
                                                    const std::string& repository) {
  std::string key = host + "/" + repository;
  {
    std::lock_guard lock(m_mutex);
    if (auto it = m_cache.find(key); it != m_cache.end()) {
      return it->second;
    }
  }
  auto found = lookup_uncached(host, repository);
  if (!found) {
    return found;
  }
  std::lock_guard lock(m_mutex);
  m_cache.emplace(key, *found);
  return found;
}

void Keychain::use_credential_helpers(std::vector<std::string> helpers) {
  std::lock_guard lock(m_mutex);
  m_helpers = std::move(helpers);
  m_cache.clear();
}

Result<std::optional<Credentials>> Keychain::lookup_uncached(const std::string& host,
                                                             const std::string& repository) {
  std::vector<std::string> helpers;
  {
    std::lock_guard lock(m_mutex);
    helpers = m_helpers;
  }
  std::optional<Error> failure;
  for (const auto& helper : helpers) {
    auto found = helper == k_auth_files_helper ? lookup_in_files(host, repository)
                                               : run_credential_helper(m_options, helper, host);
    if (!found) {
      if (!failure) {
        failure = std::move(found).error();
      }
      continue;
    }
    if (*found) {
      m_options.log.debug("credentials for {}/{} from {}", host, repository, (*found)->source);
      return found;
    }
  }
  if (failure) {
    return std::unexpected(std::move(*failure));
  }
  m_options.log.debug("no credentials for {}/{}", host, repository);
  return std::optional<Credentials>{};
}

Result<std::optional<Credentials>> Keychain::lookup_in_files(const std::string& host,
                                                             const std::string& repository) {
  if (auto run = m_options.getenv("XDG_RUNTIME_DIR")) {
    std::error_code ec;
    if (!fs::is_directory(*run, ec)) {
      m_options.log.warn("XDG_RUNTIME_DIR {} is not a directory; skipping its auth.json", *run);
    }
  }
  auto files = search_order();
  for (std::size_t i = 0; i < files.size(); ++i) {
    bool legacy = files[i].filename() == ".dockercfg";
    auto found = OPM_TRY(lookup_in_file(files[i], legacy, host, repository));
    if (found) {
      return found;
    }
  }
  return std::optional<Credentials>{};
}

Result<std::optional<Credentials>> Keychain::lookup_in_file(const fs::path& file, bool legacy,
                                                            const std::string& host,
                                                            const std::string& repository) {
  auto text = util::read_file(file);
  if (!text) {
    if (text.error().code() == Errc::not_found) {
      return std::optional<Credentials>{};
    }
    std::error_code ec;
    if (fs::is_directory(file, ec)) {
      return std::optional<Credentials>{};
    }
    return std::unexpected(std::move(text).error());
  }
  nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return util::fail(Errc::invalid,
                      fmt::format("reading credentials from {}: invalid JSON", file.string()));
  }
  const nlohmann::json* auths = &doc;
  nlohmann::json empty = nlohmann::json::object();
  if (!legacy) {
    auto it = doc.find("auths");
    auths = it != doc.end() && it->is_object() ? &*it : &empty;
    if (auto helpers = doc.find("credHelpers"); helpers != doc.end() && helpers->is_object()) {
      for (const auto& [key, helper] : helpers->items()) {
        if (key_host(key) == host && helper.is_string()) {
          return run_credential_helper(m_options, helper.get<std::string>(), host);
        }
      }
    }
  }
  // Most specific namespaced key first: host/a/b/c, host/a/b, host/a, host.
  std::string candidate = host + "/" + repository;
  for (;;) {
    if (auto it = auths->find(candidate); it != auths->end()) {
      auto c = OPM_TRY(entry_credentials(*it, file, candidate));
      if (c) {
        return c;
      }
    }
    auto slash = candidate.rfind('/');
    if (slash == std::string::npos || slash < host.size()) {
      break;
    }
    candidate.resize(slash);
  }
  for (const auto& [key, entry] : auths->items()) {
    if (key.find("://") == std::string::npos && key.find('/') != std::string::npos) {
      continue; // a namespaced key for another repository
    }
    if (key_host(key) == host) {
      auto c = OPM_TRY(entry_credentials(entry, file, key));
      if (c) {
        return c;
      }
    }
  }
  if (!legacy) {
    if (auto store = doc.find("credsStore");
        store != doc.end() && store->is_string() && !store->get_ref<const std::string&>().empty()) {
      return run_credential_helper(m_options, store->get<std::string>(), host);
    }
  }
  return std::optional<Credentials>{};
}

} // namespace opm::registry
