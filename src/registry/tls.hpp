#pragma once

#include "registry/options.hpp"
#include "util/error.hpp"

#include <memory>
#include <string>
#include <vector>

namespace opm::registry {

// How to talk TLS to one registry host: verification, extra roots and the client
// certificate from its certs.d directory.
struct TlsConfig {
  bool verify = true;
  std::string ca_file;                   // replaces the default bundle file (SSL_CERT_FILE)
  std::string ca_dir;                    // replaces the default hashed directory (SSL_CERT_DIR)
  std::vector<std::string> extra_ca_pem; // PEM text added to the default roots
  std::string client_cert;               // certs.d client.cert
  std::string client_key;                // certs.d client.key
  std::string certs_dir;                 // the certs.d directory used, for hints

  // Parsed extra roots, kept alive for the TLS library's context callback.
  struct Loaded;
  std::shared_ptr<Loaded> loaded;
};

// TLS settings for `host` (host[:port]): SSL_CERT_FILE/SSL_CERT_DIR, --ca-file, the first
// certs.d directory that exists for the host, and `insecure` (no verification).
Result<std::shared_ptr<const TlsConfig>> make_tls_config(const Options& options,
                                                         const std::string& host, bool insecure);

} // namespace opm::registry
