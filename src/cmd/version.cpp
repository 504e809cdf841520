#include "util/version.hpp"

#include "cmd/commands.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace opm::cmd {

namespace {

// Go's runtime.GOARCH for the machine this was built for.
constexpr std::string_view go_arch() {
#if defined(__x86_64__)
  return "amd64";
#elif defined(__aarch64__)
  return "arm64";
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
  return "ppc64le";
#elif defined(__powerpc64__)
  return "ppc64";
#elif defined(__s390x__)
  return "s390x";
#elif defined(__riscv) && __riscv_xlen == 64
  return "riscv64";
#elif defined(__i386__)
  return "386";
#elif defined(__arm__)
  return "arm";
#else
  return "unknown";
#endif
}

constexpr std::string_view go_os() {
#if defined(__linux__)
  return "linux";
#elif defined(__APPLE__)
  return "darwin";
#elif defined(__FreeBSD__)
  return "freebsd";
#else
  return "unknown";
#endif
}

} // namespace

// Prints the version as upstream does: Go's %#v of its version.Version struct.
void add_version(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* sub = add_command(parent, ctx,
                          {.use = "version",
                           .short_text = "Print the opm version",
                           .long_text = "Print the opm version",
                           .example = "kubebuilder version"});
  sub->callback([&ctx, &chosen, sub] {
    chosen.command = sub;
    chosen.run = [&ctx]() -> Result<void> {
      ctx.out << fmt::format("Version: version.Version{{OpmVersion:{}, GitCommit:{}, "
                             "BuildDate:{}, GoOs:{}, GoArch:{}}}\n",
                             util::go_quote(util::version()), util::go_quote(util::git_commit()),
                             util::go_quote(util::build_date()), util::go_quote(go_os()),
                             util::go_quote(go_arch()));
      return {};
    };
  });
}

} // namespace opm::cmd
