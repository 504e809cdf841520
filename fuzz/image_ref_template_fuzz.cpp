// The --alpha-image-ref-template language of `opm render`: parsed, then executed over a
// bundle's package, name and version.
#include "render/image_ref_template.hpp"

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parsed = opm::render::ImageRefTemplate::parse(opm::fuzz::as_text(data, size));
  if (!parsed) {
    OPM_FUZZ_CHECK(!parsed.error().message().empty());
    return 0;
  }
  opm::render::ImageRefFields fields{"etcd", "etcdoperator.v0.9.4", "0.9.4"};
  auto first = parsed->execute(fields);
  auto second = parsed->execute(fields);
  OPM_FUZZ_CHECK(first.has_value() == second.has_value());
  OPM_FUZZ_CHECK(!first || *first == *second);
  (void)parsed->execute({});
  return 0;
}
