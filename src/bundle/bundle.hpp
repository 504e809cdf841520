#pragma once

#include "bundle/apis.hpp"
#include "bundle/csv.hpp"
#include "bundle/properties.hpp"
#include "catalog/declcfg.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

// A registry+v1 bundle (manifests/ + metadata/) and its conversion into an FBC olm.bundle,
// as upstream opm renders bundle images and bundle directories (alpha/action/render.go).
namespace opm::bundle {

// What upstream's bundle parser keeps of a bundle directory.
struct Parsed {
  std::string name;    // the CSV's metadata.name
  std::string package; // from the annotations
  std::vector<std::string> channels;
  std::string default_channel;
  // The kept manifest objects, in file-name order, as Go JSON text (compact, keys sorted,
  // HTML-escaped); `csv_index` is the CSV among them.
  std::vector<std::string> object_json;
  std::size_t csv_index = 0;
  Csv csv;
  ApiSet provided; // CRDs and owned API services
  // Properties file entries followed by the derived ones (package, CSV olm.properties
  // annotation, one olm.gvk per provided API), deduplicated.
  std::vector<RawProperty> properties;
  std::vector<RawProperty> dependencies;
  // Whether metadata/ had a dependencies or a properties document with entries (upstream
  // logs "Could not find optional ... file" when not).
  bool dependencies_file = false;
  bool properties_file = false;
};

// Read `dir` as upstream's bundle parser does. Errors keep upstream's texts, e.g.
// "no csv in bundle", "no bundle objects found", "Could not find annotations file",
// "error checking provided apis in bundle <name>: couldn't find ...".
Result<Parsed> parse_dir(const std::filesystem::path& dir);

// The olm.bundle for a parsed bundle whose image reference is `image` ("" for none).
// Errors: `get properties for bundle "<name>": ...`, `get related images for bundle "<name>": ...`.
Result<catalog::Bundle> to_declcfg(const Parsed& parsed, std::string_view image);

// The same, reusing the parsed bundle's object texts.
Result<catalog::Bundle> to_declcfg(Parsed&& parsed, std::string_view image);

// parse_dir + to_declcfg.
Result<catalog::Bundle> load_dir(const std::filesystem::path& dir, std::string_view image);

// The version the image reference template sees: that of the first olm.package property.
Result<std::string> template_version(const Parsed& parsed);

} // namespace opm::bundle
