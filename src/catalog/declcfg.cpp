#include "catalog/declcfg.hpp"

#include <iterator>

namespace opm::catalog {

namespace {
template <typename T> void append(std::vector<T>& to, std::vector<T>&& from) {
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}
} // namespace

void DeclarativeConfig::merge(DeclarativeConfig&& other) {
  append(packages, std::move(other.packages));
  append(channels, std::move(other.channels));
  append(bundles, std::move(other.bundles));
  append(deprecations, std::move(other.deprecations));
  append(others, std::move(other.others));
}

} // namespace opm::catalog
