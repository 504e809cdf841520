#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// Catalog templates (upstream alpha/template): inputs that name bundle images and
// expand to a whole file-based catalog. Bundles are rendered by a function the caller
// supplies, so this job never pulls or unpacks anything itself.
namespace opm::templates {

// Renders every reference, all at once if it likes: one config per reference, in order.
// On failure, the error of the first failing reference in order (`render reference ...`).
using RenderBundles = std::function<Result<std::vector<catalog::DeclarativeConfig>>(
    const std::vector<std::string>& refs)>;

// The template types, sorted: the text after the last '.' of each template schema.
std::span<const std::string_view> types();
bool is_type(std::string_view type);

// The type named by the `schema` of the input's first document, with upstream's errors:
// "decoding template input: ...", "template input missing required 'schema' field",
// "unknown template schema: <schema>".
Result<std::string> detect_type(std::string_view input);

// Renders `input` as a template of `type` (one of types()). Errors are the template's own,
// without the command's "rendering template: " prefix.
Result<catalog::DeclarativeConfig> render(std::string_view type, std::string_view input,
                                          const RenderBundles& render_bundles);

// The basic template: a document of `schema: olm.template.basic` whose `entries` are catalog
// objects, bundles carrying only an image. Any other schema fails as latest upstream fails:
// `template has unknown schema ("<schema>"), should be "olm.template.basic"`.
Result<catalog::DeclarativeConfig> render_basic(std::string_view input,
                                                const RenderBundles& render_bundles);

// The semver template (`schema: olm.semver`): channels generated from bundle versions.
Result<catalog::DeclarativeConfig> render_semver(std::string_view input,
                                                 const RenderBundles& render_bundles);

// The substitutes template (`schema: olm.template.substitutes`).
Result<catalog::DeclarativeConfig> render_substitutes(std::string_view input,
                                                      const RenderBundles& render_bundles);

enum class ConvertFormat { json, yaml };

// `opm alpha convert-template basic|substitutes`: one catalog stream turned into a template of
// `type` ("basic": bundles reduced to their image; "substitutes": kept whole, no
// substitutions), as upstream prints it: JSON indented by four spaces with HTML characters
// escaped, or "---" and its YAML; a newline after either.
Result<std::string> convert(std::string_view fbc, std::string_view type, ConvertFormat format);

} // namespace opm::templates
