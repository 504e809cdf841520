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
  std::string package = {}; // the package it is about; "" for a catalog that does not convert

  // "file:line: text"
  [[nodiscard]] std::string describe() const { return where.describe() + ": " + text; }
};

struct Outcome {
  // Upstream's whole message: a conversion error, or the "invalid index:" tree.
  // Empty when the catalog is valid.
  std::string message;
  // Every problem with its location (one for a conversion error).
  std::vector<Finding> findings;

  [[nodiscard]] bool passed() const { return message.empty(); }
};

// Convert to the model (first failure wins) and run every model rule (alpha/model),
// collecting all problems into upstream's tree, siblings in byte-wise name order.
Outcome check(const catalog::DeclarativeConfig& cfg);

// The rules over an already converted model. Empty message when valid.
Outcome check_model(const catalog::model::Model& model);

// A failed check as one Error that names every place: a lone finding with a one-line message
// is the Error's location; otherwise each finding comes first on its own line
// ("file:line: text"), then upstream's message, unlocated.
Error located_failure(Outcome&& outcome);

// What upstream's ConvertToModel returns: the model of a catalog that passes every check,
// or check()'s failure as located_failure() gives it. The model points into `cfg` (see
// catalog::model::to_model).
Result<catalog::model::Model> valid_model(const catalog::DeclarativeConfig& cfg);
Result<catalog::model::Model> valid_model(catalog::DeclarativeConfig&& cfg) = delete;

} // namespace opm::validate
