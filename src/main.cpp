#include "cmd/commands.hpp"
#include "cmd/health_probe.hpp"

#if defined(__SANITIZE_ADDRESS__)
// The ASan+UBSan build's default: GCC 12's leak checker can take a block of the serve module's
// thread-local storage for a pre-2.25 glibc header and crash in its tracer at exit ("Tracer
// caught signal 11"). Set here, it holds wherever the binary runs, an image's root included,
// whatever the environment.
extern "C" const char* __asan_default_options() { return "intercept_tls_get_addr=0"; }
#endif

int main(int argc, char** argv) {
  if (argc > 0 && opm::cmd::invoked_as_health_probe(argv[0])) {
    return opm::cmd::run_health_probe(argc, argv);
  }
  return opm::cmd::run(argc, argv);
}
