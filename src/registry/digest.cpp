#include "registry/digest.hpp"

#include "registry/crypto_library.hpp"

namespace opm::registry {

struct Hasher::State {
  const EVP_MD* md = nullptr;
  std::string name;
  std::unique_ptr<EVP_MD_CTX, FreeDigestContext> ctx;
};

Hasher::Hasher(std::string_view algorithm) : m_state(std::make_unique<State>()) {
  if (algorithm == "sha512") {
    m_state->name = "sha512";
    m_state->md = crypto().sha512();
  } else if (algorithm == "sha384") {
    m_state->name = "sha384";
    m_state->md = crypto().sha384();
  } else {
    m_state->name = "sha256";
    m_state->md = crypto().sha256();
  }
  m_state->ctx.reset(crypto().md_ctx_new());
  OPM_ASSERT(m_state->ctx != nullptr);
  reset();
}

Hasher::~Hasher() = default;
Hasher::Hasher(Hasher&&) noexcept = default;
Hasher& Hasher::operator=(Hasher&&) noexcept = default;

void Hasher::reset() { crypto().digest_init(m_state->ctx.get(), m_state->md, nullptr); }

void Hasher::update(std::string_view bytes) {
  crypto().digest_update(m_state->ctx.get(), bytes.data(), bytes.size());
}

std::string Hasher::finish() {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  crypto().digest_final(m_state->ctx.get(), out, &len);
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string s = m_state->name + ":";
  s.reserve(s.size() + len * 2);
  for (unsigned int i = 0; i < len; ++i) {
    s += k_hex[out[i] >> 4];
    s += k_hex[out[i] & 15];
  }
  reset();
  return s;
}

std::string_view digest_algorithm(std::string_view digest) {
  return digest.substr(0, digest.find(':'));
}

std::string_view digest_hex(std::string_view digest) {
  auto colon = digest.find(':');
  return colon == std::string_view::npos ? std::string_view{} : digest.substr(colon + 1);
}

std::string digest_of(std::string_view bytes, std::string_view like) {
  Hasher h(digest_algorithm(like));
  h.update(bytes);
  return h.finish();
}

} // namespace opm::registry
