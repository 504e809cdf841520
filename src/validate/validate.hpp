#pragma once

#include "catalog/declcfg.hpp"
#include "catalog/model.hpp"
#include "util/error.hpp"

#include <string>
#include <vector>

namespace opm::validate {

// One problem of the model, with the location of the blob it is about.
struct Finding {
  std::string text; // e.g. `invalid bundle "x1": bundle image must be set` (path + rule)
  Location where;
};

struct Outcome {
  // Upstream's whole message: a conversion error, or the "invalid index:" tree.
  // Empty when the catalog is valid.
  std::string message;
  // Every problem with its location (one for a conversion error).
  std::vector<Finding> findings;

  [[nodiscard]] bool passed() const { return message.empty(); }
};

// Convert to the model (first failure wins) and run every model rule (validate.md §4),
// collecting all problems into upstream's tree, siblings in byte-wise name order.
Outcome check(const catalog::DeclarativeConfig& cfg);

// The rules over an already converted model. Empty message when valid.
Outcome check_model(const catalog::model::Model& model);

} // namespace opm::validate
