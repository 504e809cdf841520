// Pulling rules on top of util::parse_reference (Docker's grammar): the default tag,
// opm's canonical-only rule, the Docker Hub API host, and bracketed IPv6 registries.
#include "registry/reference.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace opm::registry {

namespace {

constexpr std::string_view k_docker_domain = "docker.io";

Result<Reference> parse_for_pull(std::string_view text) {
  return util::parse_reference(text, util::Ipv6Hosts::bracketed);
}

} // namespace

bool is_valid_digest(std::string_view digest) {
  return static_cast<bool>(util::validate_digest(digest));
}

std::string api_host(const Reference& ref) {
  return ref.domain == k_docker_domain ? std::string("registry-1.docker.io") : ref.domain;
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
  auto r = OPM_TRY(parse_for_pull(text));
  return r.with_default_tag();
}

Result<Reference> parse_canonical(std::string_view text) {
  auto parsed = OPM_TRY(parse_for_pull(text));
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
  return parsed;
}

} // namespace opm::registry
