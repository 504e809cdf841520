#pragma once

#include "util/error.hpp"

#include <string>
#include <vector>

// Go's k8s.io/apimachinery utilerrors.NewAggregate(errs).Error(), which upstream uses
// wherever it reports several failures at once.
namespace opm::util {

// Repeated messages once, in first-seen order; one message as it is, several as "[a, b]".
std::string aggregate_text(const std::vector<std::string>& messages);
std::string aggregate_text(const std::vector<Error>& errors);

} // namespace opm::util
