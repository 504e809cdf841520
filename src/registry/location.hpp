#pragma once

#include "registry/reference.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <variant>

// Where an image is, as containers/image spells it: a registry reference, an OCI image layout
// ("oci:DIR[:TAG]") or a `docker save` archive ("docker-archive:FILE[:REF]"). Parsed once,
// where a command receives the text; nothing else looks at the prefixes.
namespace opm::registry {

// "oci:DIR[:TAG]": the tag is after the last ':' unless a '/' follows it.
struct LayoutLocation {
  std::filesystem::path dir;
  std::string tag; // empty: the layout's only image
};

// "docker-archive:FILE[:REF]": REF is after the first ':' (a RepoTags entry when reading,
// the name written when writing).
struct ArchiveLocation {
  std::filesystem::path file;
  std::string ref;
};

struct ImageLocation {
  std::string text; // as written, for messages
  std::variant<Reference, LayoutLocation, ArchiveLocation> where;

  const Reference* remote() const { return std::get_if<Reference>(&where); }
  const LayoutLocation* layout() const { return std::get_if<LayoutLocation>(&where); }
  const ArchiveLocation* archive() const { return std::get_if<ArchiveLocation>(&where); }
};

// A layout, an archive, or else a registry reference in canonical form (parse_canonical's
// errors, unchanged).
Result<ImageLocation> parse_image_location(std::string_view text);

// The registry image `ref` names.
ImageLocation remote_location(Reference ref);

} // namespace opm::registry
