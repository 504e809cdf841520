#include "serve/cache.hpp"

#include "catalog/load.hpp"
#include "validate/validate.hpp"

namespace opm::serve {

Result<PackageIndex> load_catalog(const std::string& dir) {
  auto cfg = OPM_TRY(catalog::load_dir(dir));
  auto model = OPM_TRY(validate::valid_model(cfg));
  return index_model(model);
}

Result<Store> load_store(const Options& o) { return Store(OPM_TRY(load_catalog(o.configs_dir))); }

} // namespace opm::serve
