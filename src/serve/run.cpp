#include "serve/cache.hpp"
#include "serve/listen.hpp"
#include "serve/process.hpp"
#include "serve/serve.hpp"
#include "serve/store_backend.hpp"

#include <malloc.h>

namespace opm::serve {

namespace {

// Free pages between what the index keeps go back to the system once the catalog is loaded.
// (Returning every free at once, M_TRIM_THRESHOLD 0, cost a tenth of start-up's CPU in page
// faults and lowered the peak by nothing since the loader's scratch heaps hold the documents.)
Result<Store> load_store_returning_memory(const Options& o) {
  auto store = load_store(o);
  malloc_trim(0);
  return store;
}

Result<void> serve_store(const Store& store, const Options& o, Logger& log,
                         SignalWatcher& watcher) {
  int port = OPM_TRY(resolve_port(o.port));
  OPM_TRY(probe_bind(port, o.port));

  StoreBackend backend(store);
  RegistryService registry(backend);
  ExperimentalService experimental(store);
  OtherServices others;
  others.experimental = &experimental;
  others.unknown.add_known_service(k_experimental_service);
  auto running = OPM_TRY(start_grpc(port, o.port, registry, others));
  log.log("info", "serving registry", {{"configs", o.configs_dir}, {"port", o.port}});
  watcher.serving(&running);
  running.wait();
  watcher.serving(nullptr);
  return {};
}

} // namespace

Result<void> run(const Options& o, std::ostream& err) {
  bound_malloc_arenas();
  Logger log(err, err, o.err_is_tty);
  if (!o.pprof_addr.empty()) {
    OPM_TRY(check_listen_address(o.pprof_addr));
  }
  // Upstream hooks the file to the process-wide logger, which `opm serve` does not use: the
  // file is created and stays empty.
  open_termination_log(o.termination_log, 0644, log);
  ensure_nsswitch(log);
  if (o.cache_dir.empty() && o.enforce_integrity) {
    return util::fail(Errc::invalid,
                      "--cache-dir must be specified with --cache-enforce-integrity");
  }
  SignalWatcher watcher(log, {{"configs", o.configs_dir}, {"port", o.port}});
  Store store = OPM_TRY(load_store_returning_memory(o));
  if (o.cache_only) {
    return {};
  }
  return serve_store(store, o, log, watcher);
}

} // namespace opm::serve
