#include "registry/tls.hpp"

#include "registry/crypto_library.hpp"
#include "util/fs.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace opm::registry {

namespace fs = std::filesystem;

using X509Cert = std::unique_ptr<X509, FreeCertificate>;
using MemoryBio = std::unique_ptr<BIO, FreeBio>;

struct TlsConfig::Loaded {
  std::vector<X509Cert> certs;
};

// Used by the transport's SSL_CTX callback.
void add_extra_roots(const TlsConfig& tls, void* x509_store) {
  if (!tls.loaded) {
    return;
  }
  auto* store = static_cast<X509_STORE*>(x509_store);
  for (const auto& c : tls.loaded->certs) {
    crypto().store_add_certificate(store, c.get()); // duplicates are harmless
  }
}

namespace {

std::vector<fs::path> certs_roots(const Options& options) {
  if (!options.certs_dirs.empty()) {
    return options.certs_dirs;
  }
  std::vector<fs::path> roots;
  if (auto cfg = options.getenv("XDG_CONFIG_HOME")) {
    roots.push_back(fs::path(*cfg) / "containers" / "certs.d");
  } else if (auto home = options.getenv("HOME")) {
    roots.push_back(fs::path(*home) / ".config" / "containers" / "certs.d");
  }
  roots.emplace_back("/etc/containers/certs.d");
  roots.emplace_back("/etc/docker/certs.d");
  return roots;
}

Result<int> parse_pem_into(const std::string& pem, const std::string& name,
                           TlsConfig::Loaded& into) {
  MemoryBio bio(crypto().bio_from_memory(pem.data(), static_cast<int>(pem.size())));
  int count = 0;
  while (X509* cert = crypto().read_pem_certificate(bio.get(), nullptr, nullptr, nullptr)) {
    into.certs.emplace_back(cert);
    ++count;
  }
  if (count == 0) {
    return util::fail(Errc::invalid, fmt::format("failed to fetch root CA from {}", name));
  }
  return count;
}

} // namespace

Result<std::shared_ptr<const TlsConfig>> make_tls_config(const Options& options,
                                                         const std::string& host, bool insecure) {
  auto tls = std::make_shared<TlsConfig>();
  tls->verify = !insecure && !options.skip_tls_verify && !options.use_http;
  tls->ca_file = options.getenv("SSL_CERT_FILE").value_or("");
  tls->ca_dir = options.getenv("SSL_CERT_DIR").value_or("");
  auto loaded = std::make_shared<TlsConfig::Loaded>();
  if (!options.ca_file.empty()) {
    auto pem = OPM_TRY(util::read_file(options.ca_file));
    OPM_TRY(parse_pem_into(pem, options.ca_file, *loaded));
    tls->extra_ca_pem.push_back(std::move(pem));
  }
  for (const auto& root : certs_roots(options)) {
    fs::path dir = root / host;
    std::error_code ec;
    if (!fs::is_directory(dir, ec) || ::access(dir.c_str(), R_OK | X_OK) != 0) {
      continue;
    }
    std::vector<fs::path> entries;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      entries.push_back(e.path());
    }
    std::sort(entries.begin(), entries.end());
    for (const auto& p : entries) {
      auto ext = p.extension().string();
      if (ext == ".crt") {
        auto pem = OPM_TRY(util::read_file(p));
        OPM_TRY(parse_pem_into(pem, p.string(), *loaded));
        tls->extra_ca_pem.push_back(std::move(pem));
      } else if (ext == ".cert") {
        fs::path key = p;
        key.replace_extension(".key");
        if (!fs::exists(key, ec)) {
          return util::fail(Errc::invalid,
                            fmt::format("missing key {} for client certificate {}",
                                        key.filename().string(), p.filename().string()));
        }
        tls->client_cert = p.string();
        tls->client_key = key.string();
      } else if (ext == ".key") {
        fs::path cert = p;
        cert.replace_extension(".cert");
        if (!fs::exists(cert, ec)) {
          return util::fail(Errc::invalid,
                            fmt::format("missing client certificate {} for key {}",
                                        cert.filename().string(), p.filename().string()));
        }
      }
    }
    tls->certs_dir = dir.string();
    break; // the first certs.d directory that exists wins
  }
  if (!loaded->certs.empty()) {
    tls->loaded = std::move(loaded);
  }
  return std::shared_ptr<const TlsConfig>(std::move(tls));
}

} // namespace opm::registry
