#include "cmd/commands.hpp"
#include "cmd/health_probe.hpp"

int main(int argc, char** argv) {
  if (argc > 0 && opm::cmd::invoked_as_health_probe(argv[0])) {
    return opm::cmd::run_health_probe(argc, argv);
  }
  return opm::cmd::run(argc, argv);
}
