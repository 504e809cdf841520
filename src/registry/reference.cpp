// Registry-side reference handling on top of util::parse_reference (Docker's grammar):
// the default tag, opm's canonical-only rule, the Docker Hub API host, and bracketed IPv6
// registries, which the shared grammar does not know.
#include "registry/reference.hpp"

#include "util/reference.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace opm::registry {

namespace {

constexpr std::string_view k_docker_domain = "docker.io";
// Stands in for a bracketed IPv6 host while the shared grammar parses the rest.
constexpr std::string_view k_ipv6_stand_in = "ipv6.opm.invalid";

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

Reference from_util(util::Reference r) {
  return Reference{std::move(r.domain), std::move(r.path), std::move(r.tag), std::move(r.digest)};
}

// "[v6]:port/rest" -> ("[v6]", "ipv6.opm.invalid:port/rest"); nullopt when not bracketed.
std::optional<std::pair<std::string, std::string>> split_ipv6(std::string_view text) {
  if (!text.starts_with('[')) {
    return std::nullopt;
  }
  auto close = text.find(']');
  if (close == std::string_view::npos || close == 1) {
    return std::nullopt;
  }
  std::string_view addr = text.substr(1, close - 1);
  if (!std::all_of(addr.begin(), addr.end(),
                   [](char c) { return is_hex(c) || c == ':' || c == '.'; }) ||
      addr.find(':') == std::string_view::npos) {
    return std::nullopt;
  }
  std::string host(text.substr(0, close + 1));
  std::string rest(text.substr(close + 1));
  if (!rest.starts_with(':') && !rest.starts_with('/')) {
    return std::nullopt;
  }
  return std::make_pair(host, std::string(k_ipv6_stand_in) + rest);
}

Result<util::Reference> parse_any(std::string_view text, std::string& ipv6_host) {
  if (auto v6 = split_ipv6(text)) {
    ipv6_host = v6->first;
    auto r = OPM_TRY(util::parse_reference(v6->second));
    std::string_view port = std::string_view(r.domain).substr(k_ipv6_stand_in.size());
    r.domain = ipv6_host + std::string(port);
    return r;
  }
  if (text.starts_with('[')) {
    return util::fail(Errc::invalid, "invalid reference format");
  }
  return util::parse_reference(text);
}

} // namespace

bool is_valid_digest(std::string_view digest) {
  return static_cast<bool>(util::validate_digest(digest));
}

std::string Reference::name() const { return domain + "/" + path; }

std::string Reference::string() const {
  std::string s = name();
  if (!tag.empty()) {
    s += ':';
    s += tag;
  }
  if (!digest.empty()) {
    s += '@';
    s += digest;
  }
  return s;
}

std::string Reference::api_host() const {
  return domain == k_docker_domain ? std::string("registry-1.docker.io") : domain;
}

std::string normalize_registry_host(std::string_view host) {
  if (host == "docker.io" || host == "index.docker.io" || host == "registry-1.docker.io" ||
      host == "registry.hub.docker.com") {
    return std::string(k_docker_domain);
  }
  return std::string(host);
}

bool is_loopback_host(std::string_view hp) {
  std::string_view host = hp;
  if (!hp.empty() && hp.front() == '[') {
    host = hp.substr(1, hp.find(']') - 1);
  } else if (auto colon = hp.rfind(':'); colon != std::string_view::npos && hp.find(':') == colon) {
    host = hp.substr(0, colon);
  }
  if (host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1") {
    return true;
  }
  if (host.starts_with("127.")) {
    return std::all_of(host.begin(), host.end(),
                       [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
  }
  return false;
}

Result<Reference> parse_normalized(std::string_view text) {
  std::string ipv6;
  auto r = OPM_TRY(parse_any(text, ipv6));
  return from_util(r.with_default_tag());
}

Result<Reference> parse_canonical(std::string_view text) {
  std::string ipv6;
  auto parsed = OPM_TRY(parse_any(text, ipv6));
  if (parsed.to_string() != text) {
    return util::fail(Errc::invalid,
                      fmt::format("repository name must be canonical; did you mean \"{}\"?",
                                  parsed.with_default_tag().to_string()));
  }
  if (parsed.name_only()) {
    return util::fail(Errc::invalid, fmt::format("Docker reference {} is not for an unknown "
                                                 "digest case; tag or digest is needed",
                                                 text));
  }
  if (!parsed.tag.empty() && !parsed.digest.empty()) {
    return util::fail(Errc::invalid,
                      "Docker references with both a tag and digest are currently not supported");
  }
  return from_util(std::move(parsed));
}

} // namespace opm::registry
