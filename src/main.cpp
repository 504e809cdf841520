#include "cmd/commands.hpp"
#include "cmd/health_probe.hpp"
#include "cmd/serve_program.hpp"

#if defined(__SANITIZE_ADDRESS__)
// The ASan+UBSan build's default: GCC 12's leak checker can take a block of the serve module's
// thread-local storage for a pre-2.25 glibc header and crash in its tracer at exit ("Tracer
// caught signal 11"). Set here, it holds wherever the binary runs, an image's root included,
// whatever the environment.
extern "C" const char* __asan_default_options() { return "intercept_tls_get_addr=0"; }
#endif

#if !defined(__SANITIZE_ADDRESS__)
// Before anything of the executable's own starts (its command tree's static parts, the C++
// streams): a catalog pod's `opm serve` and a health probe handed over here cost `opm` little
// more than loading its libraries, 4 ms of CPU less than from main().
[[gnu::section(".preinit_array"),
  gnu::used]] void (*const k_hand_over_before_start)(int, char**,
                                                     char**) = opm::cmd::hand_over_before_start;
#endif

int main(int argc, char** argv) {
  if (argc > 0) {
    opm::cmd::keep_invoked_name(argv[0]);
  }
  // Where it was not done before start (the sanitizer builds), or failed there: once more, and
  // the command then says why. The other serve commands are handed over once their command
  // line parses (cli::Context::hand_over).
  if (opm::cmd::handed_over_at_start(argc, argv)) {
    opm::cmd::hand_over_to_serve_program(argv);
  }
  if (argc > 0 && opm::cmd::invoked_as_health_probe(argv[0])) {
    return opm::cmd::run_health_probe(argc, argv);
  }
  return opm::cmd::run(argc, argv);
}
