#include "cli/usage.hpp"
#include "cmd/commands.hpp"
#include "cmd/index_common.hpp"
#include "cmd/required_flags.hpp"
#include "cmd/string_lists.hpp"
#include "index/export.hpp"

namespace opm::cmd::index_cmd {

namespace {

constexpr std::string_view k_export_long =
    "Export an operator from an index image into the appregistry format.\n\n"
    " This command will take an index image (specified by the --index option), parse it for the "
    "given operator(s) (set by the --package option) and export the operator metadata into an "
    "appregistry compliant format (a package.yaml file).\n\n"
    " Note: the appregistry format is being deprecated in favor of the new index image and image "
    "bundle format.";

struct ExportFlags {
  bool debug = false;
  std::string index;
  std::vector<std::string> packages;
  std::vector<std::string> xpackages;
  std::string download_folder = "downloaded";
  std::string container_tool = "none";
};

} // namespace

void add_index_export(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<ExportFlags>();
  auto* sub =
      add_command(parent, ctx,
                  {.use = "export",
                   .short_text = "Export an operator from an index into the appregistry format",
                   .long_text = std::string(k_export_long) + k_long_suffix,
                   .args = Args::none()});
  sub->add_flag("--debug", flags->debug, "enable debug logging")->group("");
  const CLI::Option* index_flag =
      sub->add_option("-i,--index", flags->index, "index to get package from");
  auto* package_flag = sub->add_option("-p,--package", flags->packages,
                                       "comma separated list of packages to export");
  sub->add_option("-f,--download-folder", flags->download_folder,
                  "directory where downloaded operator bundle(s) will be stored");
  sub->add_option("-c,--container-tool", flags->container_tool, k_any_tool_usage);
  auto* xpackage_flag = sub->add_option("-o,--xpackage", flags->xpackages,
                                        "deprecated, please use --package option instead")
                            ->group("");
  sub->callback([&ctx, &chosen, sub, flags, index_flag, package_flag, xpackage_flag] {
    chosen.command = sub;
    chosen.run = [&ctx, sub, flags, index_flag, package_flag, xpackage_flag]() -> Result<void> {
      OPM_TRY(check_required(ctx, {index_flag}));
      if (ctx.meta.changed(package_flag) && ctx.meta.changed(xpackage_flag)) {
        return fail_like_cobra(
            ctx, *sub,
            Error(Errc::invalid, "cannot simultaneously set '-p' and '-o' flags, remove '-o'"));
      }
      auto tool = index::container_tool(flags->container_tool, index::ContainerTool::none);
      return with_session(
          ctx, *sub, {tool, tool, flags->debug}, fail_like_cobra, [&](Session& s) -> Result<void> {
            auto packages =
                split_values(ctx.meta.changed(xpackage_flag) ? flags->xpackages : flags->packages);
            s.fields = {{"index", flags->index}, {"package", go_list(packages)}};
            s.log("info", "export from the index");
            auto done = index::with_index_database(
                flags->index, s.steps(), [&](const std::filesystem::path& db) {
                  return index::export_packages(
                      {.database = db,
                       .packages = packages,
                       .download_folder = flags->download_folder,
                       .info = [&s](const std::string& m) { s.log("info", m); },
                       .note =
                           [&ctx](const std::string& m) {
                             ctx.err << util::logrus_line("info", m, ctx.err_is_tty);
                           }},
                      s.bundle_unpack());
                });
            return done;
          });
    };
  });
}
} // namespace opm::cmd::index_cmd
