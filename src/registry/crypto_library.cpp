#include "registry/crypto_library.hpp"

#include "util/shared_library.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace opm::registry {

namespace {

static_assert(OPENSSL_VERSION_MAJOR == 3, "k_crypto_soname and k_ssl_soname name OpenSSL 3");

Result<const CryptoLibrary*> load_crypto() {
  auto library = OPM_TRY(util::SharedLibrary::open(k_crypto_soname));
  static CryptoLibrary lib{};
  const bool complete = library.resolve("EVP_sha256", lib.sha256) &&
                        library.resolve("EVP_sha384", lib.sha384) &&
                        library.resolve("EVP_sha512", lib.sha512) &&
                        library.resolve("EVP_MD_CTX_new", lib.md_ctx_new) &&
                        library.resolve("EVP_MD_CTX_free", lib.md_ctx_free) &&
                        library.resolve("EVP_DigestInit_ex", lib.digest_init) &&
                        library.resolve("EVP_DigestUpdate", lib.digest_update) &&
                        library.resolve("EVP_DigestFinal_ex", lib.digest_final) &&
                        library.resolve("EVP_EncodeBlock", lib.encode_base64) &&
                        library.resolve("EVP_DecodeBlock", lib.decode_base64) &&
                        library.resolve("BIO_new_mem_buf", lib.bio_from_memory) &&
                        library.resolve("BIO_free", lib.bio_free) &&
                        library.resolve("PEM_read_bio_X509", lib.read_pem_certificate) &&
                        library.resolve("X509_free", lib.certificate_free) &&
                        library.resolve("X509_STORE_add_cert", lib.store_add_certificate);
  if (!complete) {
    return std::unexpected(library.missing_symbol());
  }
  return &lib;
}

const CryptoLibrary& load_crypto_or_exit() {
  auto loaded = load_crypto();
  if (!loaded) {
    std::fputs(fmt::format("opm: {}\n", loaded.error().message()).c_str(), stderr);
    std::_Exit(1);
  }
  return **loaded;
}

CertStoreOf find_cert_store_of() {
  auto library = util::SharedLibrary::open(k_ssl_soname);
  CertStoreOf found = nullptr;
  if (!library || !library->resolve("SSL_CTX_get_cert_store", found)) {
    return nullptr;
  }
  return found;
}

} // namespace

const CryptoLibrary& crypto() {
  static const CryptoLibrary& lib = load_crypto_or_exit();
  return lib;
}

CertStoreOf cert_store_of() {
  static const CertStoreOf found = find_cert_store_of();
  return found;
}

} // namespace opm::registry
