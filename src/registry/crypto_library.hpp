#pragma once

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

namespace opm::registry {

// OpenSSL's entry points, loaded the first time a digest, a certificate or base64 is needed
// (util/shared_library.hpp): linked in, libcrypto and libssl cost every command 3 ms at start,
// and most commands never hash a blob or reach a registry.
struct CryptoLibrary {
  decltype(&::EVP_sha256) sha256;
  decltype(&::EVP_sha384) sha384;
  decltype(&::EVP_sha512) sha512;
  decltype(&::EVP_MD_CTX_new) md_ctx_new;
  decltype(&::EVP_MD_CTX_free) md_ctx_free;
  decltype(&::EVP_DigestInit_ex) digest_init;
  decltype(&::EVP_DigestUpdate) digest_update;
  decltype(&::EVP_DigestFinal_ex) digest_final;
  decltype(&::EVP_EncodeBlock) encode_base64;
  decltype(&::EVP_DecodeBlock) decode_base64;
  decltype(&::BIO_new_mem_buf) bio_from_memory;
  decltype(&::BIO_free) bio_free;
  decltype(&::PEM_read_bio_X509) read_pem_certificate;
  decltype(&::X509_free) certificate_free;
  decltype(&::X509_STORE_add_cert) store_add_certificate;
};

// The shared objects loaded, by soname.
inline constexpr const char* k_crypto_soname = "libcrypto.so.3";
inline constexpr const char* k_ssl_soname = "libssl.so.3";

// The library, loaded by the first call (once per process, never unloaded); later calls
// only read it. Where it cannot be loaded (an installation without OpenSSL, whose libcurl
// could not run either), the process ends with "opm: cannot load libcrypto.so.3: <the
// loader's words>" on standard error and exit status 1, as the loader would have ended it at
// start.
const CryptoLibrary& crypto();

// Owners of OpenSSL's handles (std::unique_ptr deleters), which free them through the library.
struct FreeDigestContext {
  void operator()(EVP_MD_CTX* ctx) const noexcept { crypto().md_ctx_free(ctx); }
};
struct FreeCertificate {
  void operator()(X509* cert) const noexcept { crypto().certificate_free(cert); }
};
struct FreeBio {
  void operator()(BIO* bio) const noexcept { crypto().bio_free(bio); }
};

// libssl's SSL_CTX_get_cert_store, for libcurl's SSL_CTX callback: libcurl has loaded libssl
// by then. Null when it cannot be found.
using CertStoreOf = decltype(&::SSL_CTX_get_cert_store);
CertStoreOf cert_store_of();

} // namespace opm::registry
