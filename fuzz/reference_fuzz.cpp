// Image references: Docker's grammar (util::parse_reference) and the pulling rules on top
// (registry::parse_normalized, parse_canonical). A parsed reference printed and parsed again
// must give the same reference, and its printed form must be canonical.
#include "registry/reference.hpp"
#include "util/reference.hpp"

#include <algorithm>
#include <string>

#include "fuzz_support.hpp"

namespace {

using opm::util::Reference;

bool same(const Reference& a, const Reference& b) {
  return a.domain == b.domain && a.path == b.path && a.tag == b.tag && a.digest == b.digest;
}

// Docker Hub's short form drops "docker.io/", so a repository whose first component looks like a
// registry ("docker.io/a.b/app" -> "a.b/app") reads back with that registry, in Go too.
bool familiar_form_changes_domain(const Reference& ref) {
  if (ref.domain != opm::util::k_docker_domain) {
    return false;
  }
  std::string_view first = std::string_view(ref.path).substr(0, ref.path.find('/'));
  return first.find_first_of(".:") != std::string_view::npos || first == "localhost";
}

// "docker.io/<64 hex digits>" parses, but its short form is the bare 64 hex digits, which
// Go's ParseNormalizedNamed refuses as an image ID ("cannot specify 64-byte hexadecimal
// strings").
bool familiar_form_is_image_id(const Reference& ref) {
  const std::string familiar = ref.familiar_string();
  return familiar.size() == 64 && std::ranges::all_of(familiar, [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

void check_round_trip(const Reference& ref, opm::util::Ipv6Hosts ipv6) {
  auto printed = ref.to_string();
  auto again = opm::util::parse_reference(printed, ipv6);
  OPM_FUZZ_CHECK(again.has_value());
  OPM_FUZZ_CHECK(same(ref, *again));
  OPM_FUZZ_CHECK(again->to_string() == printed);
  // Go keeps no domain for a name whose first component only looks like one
  // ("a.b__c/d" is all path), and prints the path alone.
  OPM_FUZZ_CHECK(ref.name() == (ref.domain.empty() ? ref.path : ref.domain + "/" + ref.path));

  auto familiar = opm::util::parse_reference(ref.familiar_string(), ipv6);
  OPM_FUZZ_CHECK(familiar.has_value() != familiar_form_is_image_id(ref));
  OPM_FUZZ_CHECK(!familiar || same(ref, *familiar) || familiar_form_changes_domain(ref));

  if (ipv6 == opm::util::Ipv6Hosts::rejected) {
    auto canonical = opm::util::parse_canonical_reference(printed);
    OPM_FUZZ_CHECK(canonical.has_value());
    OPM_FUZZ_CHECK(same(ref, *canonical));
  }
  if (!ref.digest.empty()) {
    OPM_FUZZ_CHECK(opm::util::validate_digest(ref.digest).has_value());
    OPM_FUZZ_CHECK(opm::registry::is_valid_digest(ref.digest));
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto text = opm::fuzz::as_text(data, size);
  for (auto ipv6 : {opm::util::Ipv6Hosts::rejected, opm::util::Ipv6Hosts::bracketed}) {
    if (auto ref = opm::util::parse_reference(text, ipv6)) {
      check_round_trip(*ref, ipv6);
    }
  }
  if (auto normalized = opm::registry::parse_normalized(text)) {
    OPM_FUZZ_CHECK(!normalized->name_only());
    check_round_trip(*normalized, opm::util::Ipv6Hosts::bracketed);
    (void)opm::registry::api_host(*normalized);
    (void)opm::registry::is_loopback_host(normalized->domain);
    (void)opm::registry::normalize_registry_host(normalized->domain);
  }
  if (auto canonical = opm::registry::parse_canonical(text)) {
    OPM_FUZZ_CHECK(canonical->to_string() == text);
  }
  return 0;
}
