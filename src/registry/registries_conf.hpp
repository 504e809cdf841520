#pragma once

#include "registry/options.hpp"
#include "registry/reference.hpp"
#include "util/error.hpp"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace opm::registry {

enum class PullFrom { all, digest_only, tag_only };

struct MirrorEntry {
  std::string location;
  bool insecure = false;
  PullFrom pull_from = PullFrom::all;
};

struct RegistryEntry {
  std::string prefix; // defaults to location
  std::string location;
  bool insecure = false;
  bool blocked = false;
  bool mirror_by_digest_only = false;
  std::vector<MirrorEntry> mirrors;
};

// Where to pull a reference from, in order: mirrors, then the registry itself.
struct PullSource {
  Reference ref; // the reference rewritten to this source
  bool insecure = false;
  bool mirror = false;
};

// containers-registries.conf(5), formats v2 and v1 (insecure and block lists only).
class RegistriesConf {
public:
  // Reads the files the way podman does: $CONTAINERS_REGISTRIES_CONF, or the user's file,
  // or the system file, plus the drop-in directories. An explicit `path` replaces them all.
  static Result<RegistriesConf> load(const Options& options);
  // Adds one file's content; later calls override earlier ones per prefix.
  Result<void> merge(std::string_view text, std::string_view name);

  // Pull sources for `ref`: mirrors then the primary location. Blocked -> error.
  Result<std::vector<PullSource>> sources(const Reference& ref) const;

  [[nodiscard]] const std::vector<RegistryEntry>& entries() const { return m_entries; }
  // `credential-helpers`: where credentials are looked for, in order; "containers-auth.json"
  // stands for the auth files, any other name for docker-credential-<name>. Default: the
  // auth files only.
  [[nodiscard]] std::vector<std::string> credential_helpers() const;

private:
  const RegistryEntry* match(const Reference& ref) const;

  std::vector<RegistryEntry> m_entries;
  std::set<std::string> m_v1_insecure;
  std::set<std::string> m_v1_blocked;
  std::vector<std::string> m_credential_helpers; // empty = not set
};

} // namespace opm::registry
