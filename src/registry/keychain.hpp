#pragma once

#include "registry/options.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace opm::registry {

// The credential-helpers entry that stands for the auth files (containers-registries.conf).
inline constexpr std::string_view k_auth_files_helper = "containers-auth.json";

struct Credentials {
  std::string username;
  std::string password;
  std::string identity_token; // OAuth2 refresh token ("identitytoken" in auth files)
  std::string source; // where they came from, for logs: a file or a helper, never the secret
};

// Finds credentials the way `docker login` / `podman login` users expect: the auth files
// (search_order) and the credential helpers registries.conf names.
// Thread-safe; results are cached per repository.
class Keychain {
public:
  explicit Keychain(const Options& options);

  // Credentials for `host/repository`; `host` as in the reference ("docker.io" for Hub,
  // "127.0.0.1:5000"). nullopt = none configured.
  Result<std::optional<Credentials>> lookup(const std::string& host, const std::string& repository);

  // Auth files in search order; the primary file first (may repeat in the chain).
  [[nodiscard]] std::vector<std::filesystem::path> search_order() const;

  // registries.conf `credential-helpers`: the stores asked in order, k_auth_files_helper
  // for the auth files (the default), any other name for docker-credential-<name>.
  void use_credential_helpers(std::vector<std::string> helpers);

private:
  struct Lookup;
  Result<std::optional<Credentials>> lookup_uncached(const std::string& host,
                                                     const std::string& repository);
  Result<std::optional<Credentials>> lookup_in_files(const std::string& host,
                                                     const std::string& repository);
  Result<std::optional<Credentials>> lookup_in_file(const std::filesystem::path& file, bool legacy,
                                                    const std::string& host,
                                                    const std::string& repository);

  Options m_options;
  std::mutex m_mutex;
  std::map<std::string, std::optional<Credentials>> m_cache;
  std::vector<std::string> m_helpers{std::string(k_auth_files_helper)};
};

// The docker-credential-helpers protocol: run `docker-credential-<helper> get` with
// `server` on stdin. nullopt = "credentials not found".
Result<std::optional<Credentials>>
run_credential_helper(const Options& options, const std::string& helper, const std::string& server);

} // namespace opm::registry
