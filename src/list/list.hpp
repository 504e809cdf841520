#pragma once

#include "catalog/declcfg.hpp"
#include "catalog/model.hpp"
#include "util/error.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

// The tables of `opm alpha list packages|channels|bundles`,
// built from a model that passed validation (validate::valid_model gives one, failing with
// the message upstream prints). Rows sorted byte-wise; columns aligned as Go's tabwriter
// aligns them (widest cell + 2 spaces, last column unpadded), every row ending in "\n".
namespace opm::list {

enum class Listing { packages, channels, bundles };

struct Request {
  std::string ref{}; // a catalog directory or catalog image
  Listing what = Listing::packages;
  std::string package{}; // empty: every package
};

// Renders a catalog reference; fails with Errc::not_allowed for a bundle reference.
using RenderCatalog = std::function<Result<catalog::DeclarativeConfig>(const std::string& ref)>;

// The table `opm alpha list` prints for `request`: the reference rendered by `render`,
// converted and validated (`cannot list non-index "ref"` for a bundle).
Result<std::string> run(const Request& request, const RenderCatalog& render);

// NAME, DISPLAY NAME (spec.displayName of the CSV of the default channel's head), DEFAULT CHANNEL.
std::string list_packages(const catalog::model::Model& model);

// PACKAGE, CHANNEL, HEAD; only `package` when given (`package "nope" not found` otherwise).
Result<std::string> list_channels(const catalog::model::Model& model,
                                  std::string_view package = {});

// PACKAGE, CHANNEL, BUNDLE, REPLACES, SKIPS (comma-joined), SKIP RANGE, IMAGE: one row per
// channel entry; only `package` when given.
Result<std::string> list_bundles(const catalog::model::Model& model, std::string_view package = {});

// Go's text/tabwriter (minwidth 0, padding 2, padded with spaces, no flags) over rows of
// cells: every cell but a row's last is padded to its column's width; widths count code
// points.
std::string tabulate(const std::vector<std::vector<std::string>>& rows);

} // namespace opm::list
