// containers-registries.conf(5) text, v1 and v2, merged as one file and then once more over
// itself (a drop-in overriding the main file), then asked where a few references are pulled
// from. Every pull source of a reference must be a reference that prints and parses again.
#include "registry/reference.hpp"
#include "registry/registries_conf.hpp"

#include <array>

#include "fuzz_support.hpp"

namespace {

constexpr std::array k_references{
    "docker.io/library/busybox:latest",
    "quay.io/acme/app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "localhost:5000/ns/img:v1",
    "example.com/a/b/c:tag",
};

void check_sources(const opm::registry::RegistriesConf& conf) {
  for (const char* text : k_references) {
    auto ref = opm::registry::parse_normalized(text);
    OPM_FUZZ_CHECK(ref.has_value());
    auto sources = conf.sources(*ref);
    if (!sources) {
      continue;
    }
    for (const auto& source : *sources) {
      auto printed = source.ref.to_string();
      (void)opm::registry::parse_normalized(printed);
    }
  }
  (void)conf.credential_helpers();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto text = opm::fuzz::as_text(data, size);
  opm::registry::RegistriesConf conf;
  if (!conf.merge(text, "registries.conf")) {
    return 0;
  }
  check_sources(conf);
  OPM_FUZZ_CHECK(conf.merge(text, "registries.conf.d/override.conf").has_value());
  check_sources(conf);
  return 0;
}
