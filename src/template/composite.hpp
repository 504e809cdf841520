#pragma once

#include "catalog/write.hpp"
#include "template/template.hpp"
#include "util/error.hpp"

#include <string>
#include <string_view>
#include <vector>

// The composite template of v1.26.5 (`opm alpha render-template composite`): a catalog
// configuration names catalogs and the builders they allow; a composite configuration
// names components, each built by one builder into <workingDir>/<path>/<output>.
namespace opm::templates {

struct CatalogEntry {
  std::string name;
  std::string base_image;
  std::string working_dir;
  std::vector<std::string> builders;
};

// The catalog configuration (`schema: olm.composite.catalogs`), checked as upstream does:
// "decoding catalog config: ...", "catalog configuration file has unknown schema, ...",
// `getting builder "<b>" for catalog "<c>": unknown schema "<b>"` and the field validation
// listing of every catalog lacking a base image or working directory.
Result<std::vector<CatalogEntry>> read_catalog_config(std::string_view text);

struct CompositeOptions {
  catalog::Format output = catalog::Format::json;
  bool validate = true;
  RenderBundles render_bundles;
};

// Builds every component of the composite configuration (`schema: olm.composite`) read from
// `file` (named in its errors), validating each result when asked. Errors as upstream's,
// e.g. `rendering the composite template: building component "c": ...`.
Result<void> render_composite(const std::vector<CatalogEntry>& catalogs, std::string_view text,
                              const std::string& file, const CompositeOptions& options);

} // namespace opm::templates
