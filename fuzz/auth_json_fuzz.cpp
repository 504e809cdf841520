// Registry credentials files: the input as containers' auth.json (REGISTRY_AUTH_FILE) and as a
// legacy ~/.dockercfg, asked for the credentials of a few repositories. Credential helpers
// named by the file are looked for on a PATH that holds none, so nothing is ever run.
#include "registry/keychain.hpp"

#include <array>
#include <utility>

#include "fuzz_support.hpp"

namespace {

constexpr std::array<std::pair<const char*, const char*>, 4> k_lookups{{
    {"docker.io", "library/busybox"},
    {"quay.io", "acme/team/app"},
    {"127.0.0.1:5000", "ns/img"},
    {"[::1]:5000", "img"},
}};

void look_up_all(opm::registry::Keychain& keychain) {
  for (const auto& [host, repository] : k_lookups) {
    auto found = keychain.lookup(host, repository);
    if (found && *found) {
      const auto& credentials = **found;
      OPM_FUZZ_CHECK(!credentials.source.empty());
    }
    auto again = keychain.lookup(host, repository);
    OPM_FUZZ_CHECK(found.has_value() == again.has_value());
  }
}

opm::registry::Options options_in(const std::filesystem::path& root) {
  opm::registry::Options options;
  options.env["HOME"] = (root / "home").string();
  options.env["XDG_RUNTIME_DIR"] = (root / "run").string();
  options.env["XDG_CONFIG_HOME"] = (root / "config").string();
  options.env["PATH"] = (root / "no-helpers").string();
  return options;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto text = opm::fuzz::as_text(data, size);
  opm::fuzz::TempDir root;

  auto auth_file = root.path() / "auth.json";
  opm::fuzz::write_file(auth_file, text);
  auto with_auth_file = options_in(root.path());
  with_auth_file.env["REGISTRY_AUTH_FILE"] = auth_file.string();
  opm::registry::Keychain auth_json(with_auth_file);
  look_up_all(auth_json);

  opm::fuzz::write_file(root.path() / "home" / ".dockercfg", text);
  opm::registry::Keychain dockercfg(options_in(root.path()));
  look_up_all(dockercfg);
  return 0;
}
