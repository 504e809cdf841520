#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"

#include <cstddef>
#include <functional>
#include <string>

// `opm alpha pin`: every bundle image and related image that names a tag, rewritten to
// name the digest the tag resolves to, so that a catalog installs the same bytes forever.
namespace opm::pin {

// The digest ("sha256:...") of the manifest or index a canonical reference names.
using Resolve = std::function<Result<std::string>(const std::string& ref)>;

struct Options {
  std::size_t jobs = 8;         // references resolved at once
  bool skip_unresolved = false; // leave a reference that does not resolve as it is
  // Told about each reference left as it was with skip_unresolved.
  std::function<void(const std::string&)> warn{};
};

// A reference already naming a digest stays as written and costs no lookup; a tag (or
// none: latest) becomes "name@digest", the name as written. Every distinct reference is
// resolved once. The first failure in catalog order ends it, naming bundle and image
// (`bundle "b" image "i": ...`), and `cfg` is left unchanged.
Result<void> pin_images(catalog::DeclarativeConfig& cfg, const Resolve& resolve,
                        const Options& options);

// What `text` becomes once its tag resolves to `digest`: "name@digest", the name as written.
std::string pinned(const std::string& text, const std::string& digest);

} // namespace opm::pin
