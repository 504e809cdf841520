#pragma once

#include "catalog/declcfg.hpp"
#include "json/flat.hpp"

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

// A bundle's olm.csv.metadata kept to make its CSV when it is asked for: a JSON catalog's text
// as written, or a decoded value in json::Flattener's form (JSON text of it would cost about as
// much to make as the CSV). Its CSV is synthesised_csv's of the property.
class KeptCsvMetadata {
public:
  // What is kept of a property, not yet kept: a view of its JSON text or of `flattener`'s
  // buffer (valid until its next use), or a text made for it.
  struct Form {
    std::string_view kept;
    std::string made;
    bool flat = false;
  };
  static Form form_of(const catalog::Property& metadata, json::Flattener& flattener);

  // A copy of `form` at its size: made where it is to be kept, it is copied once.
  explicit KeptCsvMetadata(const Form& form)
      : m_kept(form.made.empty() ? form.kept : form.made), m_flat(form.flat) {}
  KeptCsvMetadata(const catalog::Property& metadata, json::Flattener& flattener)
      : KeptCsvMetadata(form_of(metadata, flattener)) {}

  [[nodiscard]] std::string csv(const CsvStub& stub) const;

private:
  std::string m_kept;
  bool m_flat = false; // else JSON text
};

} // namespace opm::bundle
