#pragma once

#include "catalog/declcfg.hpp"
#include "json/value.hpp"
#include "template/template.hpp"
#include "util/error.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opm::templates::detail {

// The first YAML or JSON document of a template, as apimachinery's YAMLOrJSONDecoder reads
// it; nullopt when there is none (upstream's "EOF").
Result<std::optional<Json>> first_document(std::string_view input);

// The first document of a template read as a value of any type (Go: into a json.RawMessage).
Result<std::optional<Json>> first_value(std::string_view input);

// Latest's template wrapper: the first document, which must have `schema` equal to
// `schema`, with upstream's "decoding template schema: ...", "unmarshalling template: ..."
// and "template has unknown schema (...)" errors.
Result<Json> wrapped_template(std::string_view input, std::string_view schema);

// A template's `entries` loaded as catalog objects, the way upstream's declcfg.LoadSlice
// loads metas that went through a generic map: keys sorted and numbers turned to float64.
Result<catalog::DeclarativeConfig> load_entries(const Json& entries);

// Each distinct reference rendered once (in one batch, in order of first appearance).
using RenderedRefs = std::map<std::string, catalog::DeclarativeConfig, std::less<>>;
Result<RenderedRefs> render_distinct(const std::vector<std::string>& refs,
                                     const RenderBundles& render_bundles);

// The basic template as v1.26.5's composite builder reads it: latest's wrapped document, or,
// when the first document has another schema, v1.26.5's bare stream of catalog objects whose
// bundles carry only an image.
Result<catalog::DeclarativeConfig> render_basic_or_stream(std::string_view input,
                                                          const RenderBundles& render_bundles);

// A whole stream of catalog objects loaded as one catalog; `name` stands for the input in
// the messages of the objects that do not load.
Result<catalog::DeclarativeConfig> load_catalog_stream(std::string_view text,
                                                       std::string_view name);

// Drops an error's file location: templates are read as one stream, as upstream reports.
Error without_location(Error error);

} // namespace opm::templates::detail
