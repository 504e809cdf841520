#pragma once

#include "catalog/declcfg.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>

// The ClusterServiceVersion latest upstream serves for a bundle that carries an
// olm.csv.metadata property instead of its CSV (pkg/api/model_to_api.go, csvMetadataToCsv):
// OLM builds the PackageManifests the console shows from it.
namespace opm::bundle {

// What the bundle and its package add to the metadata.
struct CsvStub {
  std::string_view name;                // metadata.name: the bundle name
  std::string_view version;             // spec.version: the olm.package version
  std::string_view package_description; // spec.description when the metadata has none
  // The package icon, if any: its data as base64 (encoded once for all the package's bundles)
  // and its media type.
  struct Icon {
    std::string_view base64data;
    std::string_view mediatype;
  };
  std::optional<Icon> icon;
  std::span<const catalog::RelatedImage> related_images;
};

// json.Marshal of OLM's v1alpha1.ClusterServiceVersion built from `metadata` (the property's
// JSON text, already checked to decode into upstream's CSVMetadata): struct member order,
// omitempty/omitzero as the Go types say, map keys sorted, HTML characters escaped. Members
// are matched ignoring case and the last one of a name wins, as Go decodes them.
std::string synthesised_csv(std::string_view metadata, const CsvStub& stub);
// The same from the olm.csv.metadata property: its JSON text when it keeps one, else its
// decoded value (a YAML catalog's), read as its compact text, members in key order, would be.
std::string synthesised_csv(const catalog::Property& metadata, const CsvStub& stub);

// A CSV written without its icon's base64 text, which belongs at `icon_at`: the whole CSV is
// text[0, icon_at) + the icon's base64 text + text[icon_at, end). For a server that keeps the
// one icon of a package apart from its bundles' CSVs; base64 text needs no escaping.
struct CsvWithoutIcon {
  std::string text;
  std::size_t icon_at = 0;
};
// The same as synthesised_csv; `stub` has an icon.
CsvWithoutIcon synthesised_csv_without_icon(const catalog::Property& metadata, const CsvStub& stub);

} // namespace opm::bundle
