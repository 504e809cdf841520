#pragma once

#include "util/error.hpp"
#include "util/reference.hpp"

#include <string>
#include <string_view>

namespace opm::registry {

// References are util's: one parser for the whole project. `domain` is the registry as
// written after normalisation ("docker.io", "quay.io", "127.0.0.1:5000", "[::1]:5000").
using Reference = util::Reference;

// Host[:port] the API lives on: "registry-1.docker.io" for Docker Hub.
std::string api_host(const Reference& ref);

// Docker's reference grammar (util::parse_reference) with familiar-name normalisation:
// "busybox" -> docker.io/library/busybox:latest, "index.docker.io/x" -> docker.io/x.
// The default tag "latest" is added when there is neither tag nor digest. Bracketed IPv6
// registries ("[::1]:5000/ns/img") are accepted too.
Result<Reference> parse_normalized(std::string_view text);

// What opm pulls, as containers/image's docker transport requires: the text must already
// be canonical ("repository name must be canonical; did you mean ..."), carry a tag or a
// digest, and not both.
Result<Reference> parse_canonical(std::string_view text);

// Registry host as credentials and certs.d know it: "docker.io" for every Docker Hub alias.
std::string normalize_registry_host(std::string_view host);

// True for the hosts that never leave the machine: localhost, 127.0.0.0/8, ::1.
bool is_loopback_host(std::string_view host_and_port);

// go-digest's check: sha256, sha384 or sha512 with lower-case hex of the right length.
bool is_valid_digest(std::string_view digest);

} // namespace opm::registry
