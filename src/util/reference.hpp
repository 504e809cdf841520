#pragma once

#include "util/error.hpp"

#include <string>
#include <string_view>

// Container image references ("quay.io/ns/app:v1@sha256:..."), read as the
// docker/distribution reference grammar that upstream uses (containers/image's
// docker/reference), with its exact error texts. No I/O. The one parser of the project:
// registry/reference.hpp adds pulling rules (default tag, canonical form) on top.
namespace opm::util {

inline constexpr std::string_view k_docker_domain = "docker.io";
inline constexpr std::string_view k_docker_legacy_domain = "index.docker.io";
inline constexpr std::string_view k_docker_official_namespace = "library";
inline constexpr std::string_view k_default_tag = "latest";
inline constexpr std::size_t k_name_max_length = 255;

struct Reference {
  std::string domain; // "quay.io", "localhost:5000"; "docker.io" for Docker Hub names
  std::string path;   // "ns/app"; "library/busybox" for official Docker Hub images
  std::string tag;    // "" when absent
  std::string digest; // "sha256:<hex>" or ""

  // "domain/path"
  [[nodiscard]] std::string name() const;
  // "domain/path[:tag][@digest]"
  [[nodiscard]] std::string to_string() const;
  // Docker's short form: "busybox" for docker.io/library/busybox, "acme/app" for
  // docker.io/acme/app; other domains are kept.
  [[nodiscard]] std::string familiar_name() const;
  [[nodiscard]] std::string familiar_string() const;
  [[nodiscard]] bool name_only() const { return tag.empty() && digest.empty(); }
  // What a registry's /manifests/ endpoint takes: the digest when present, else the tag.
  [[nodiscard]] const std::string& identifier() const { return digest.empty() ? tag : digest; }
  // The same reference with tag "latest" when it has neither tag nor digest.
  [[nodiscard]] Reference with_default_tag() const;
};

// Whether a registry may be a bracketed IPv6 literal ("[::1]:5000/ns/img"). Docker's
// grammar has none; pulling accepts them so that loopback registries on ::1 work.
enum class Ipv6Hosts { rejected, bracketed };

// Parse a reference, accepting Docker's familiar forms and normalising them
// ("busybox" -> docker.io/library/busybox, "index.docker.io/x" -> docker.io/library/x);
// the first component is a domain only if it contains '.' or ':' or is "localhost".
// No default tag is added. Error texts (containers/image ParseNormalizedNamed):
//   "invalid reference format", "invalid reference format: repository name must be lowercase",
//   "repository name must be lowercase", "repository name must not be more than 255 characters",
//   "invalid repository name (<s>), cannot specify 64-byte hexadecimal strings",
//   "invalid checksum digest length", "unsupported digest algorithm",
//   "invalid checksum digest format".
// With Ipv6Hosts::bracketed, "[hex:...]" or "[hex:...]:port" is a registry too; a text
// that starts with '[' but holds no such registry is "invalid reference format".
Result<Reference> parse_reference(std::string_view text, Ipv6Hosts ipv6 = Ipv6Hosts::rejected);

// Like parse_reference, but the text must already be in canonical form
// (to_string() of the result equals the input): "repository name must be canonical".
Result<Reference> parse_canonical_reference(std::string_view text);

// "algorithm:encoded" as go-digest validates it: sha256, sha384 and sha512 with lower-case
// hex of the right length; errors "invalid checksum digest format",
// "invalid checksum digest length", "unsupported digest algorithm".
Result<void> validate_digest(std::string_view digest);

} // namespace opm::util
