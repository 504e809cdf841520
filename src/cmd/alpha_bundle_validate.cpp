// `opm alpha bundle validate` (deprecated upstream): pulls a bundle image and checks it.
#include "bundle/image_check.hpp"
#include "cmd/alpha_bundle.hpp"
#include "cmd/index_common.hpp"
#include "cmd/registry_options.hpp"
#include "cmd/required_flags.hpp"
#include "index/container_tool.hpp"
#include "registry/pull_support.hpp"
#include "registry/puller.hpp"
#include "util/interrupt.hpp"
#include "util/log.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>

namespace opm::cmd::alpha_bundle {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_long =
    R"(The "opm alpha bundle validate" command will validate a bundle image
from a remote source to determine if its format and content information are accurate. 
Required validators. These validators will run by default on every invocation of the command. 
 * CSV validator - validates the CSV name and replaces fields.
 * CRD validator - validates the CRDs OpenAPI V3 schema. 
 * Bundle validator - validates the bundle format and annotations.yaml file as well as the optional dependencies.yaml file. 

Optional validators. These validators are disabled by default and can be enabled via the --optional-validators flag. 
 * Operatorhub validator - performs operatorhub.io validation. To validate a bundle using custom categories use with the OPERATOR_BUNDLE_CATEGORIES environmental variable to point to a json-encoded categories file.
 * Bundle objects validator - performs validation on resources like PodDisruptionBudgets and PriorityClasses. 

See https://olm.operatorframework.io/docs/tasks/validate-package/#validation for more info.

Note that this subcommand is deprecated and will be removed in a future release. Migrate to operator-sdk bundle validate.)";

struct ValidateFlags {
  std::string tag;
  std::string image_builder = "docker";
  std::string optional;
  const CLI::Option* tag_flag = nullptr;
};

// Pulls `ref` and writes its files into `dir` with the chosen tool; none is our client.
Result<void> pull_into(Context& ctx, const registry::Options& options, index::ContainerTool tool,
                       const std::string& ref, const fs::path& dir,
                       const std::vector<util::LogField>& fields) {
  if (tool == index::ContainerTool::none) {
    auto puller = registry::make_puller(options);
    auto unpacked = puller->unpack(ref, dir);
    puller->destroy();
    return unpacked;
  }
  auto log = index_cmd::tool_log(ctx, tool, fields, true);
  OPM_TRY(index::pull_image(tool, ref, options.use_http, log));
  return index::copy_image_files(tool, ref, dir, log);
}

Result<void> run_validate(Context& ctx, const ValidateFlags& f) {
  const std::vector<util::LogField> fields{{"container-tool", f.image_builder}};
  auto log = [&ctx, &fields](std::string_view level, const std::string& message) {
    ctx.err << util::logrus_line(level, message, ctx.err_is_tty, fields);
  };
  auto tool = index::container_tool(f.image_builder, index::ContainerTool::none);
  registry::Options options = registry_options(ctx);
  options.use_http = ctx.global.use_http || ctx.global.skip_tls;
  options.skip_tls_verify = ctx.global.skip_tls_verify;
  options.log = stderr_log(ctx, registry::LogLevel::warn);
  util::InterruptScope interrupts;
  util::TempTree work(OPM_TRY(registry::make_temp_dir(options, "bundle-", "unpack directory")));
  bundle::ContentChecks checks{bundle::parse_optional_validators(f.optional), std::nullopt};
  if (auto custom = ctx.env.get("OPERATOR_BUNDLE_CATEGORIES"); custom && !custom->empty()) {
    auto categories = bundle::read_custom_categories(*custom);
    if (!categories) {
      return util::fail(Errc::invalid,
                        "could not extract custom categories: " + categories.error().message());
    }
    checks.categories = std::move(*categories);
  }
  log("info", "Create a temp directory at " + work.path().string());
  fs::path dir = work.path() / "bundle";
  log("debug", "Pulling and unpacking container image");
  OPM_TRY(pull_into(ctx, options, tool, f.tag, dir, fields));
  log("info", "Unpacked image layers, validating bundle image format & contents");
  // Unlike upstream, which stops after format problems, the content of a bundle whose
  // manifests/ is there is checked too, so that one run lists every problem.
  auto problems = bundle::check_format(dir, log);
  std::error_code ec;
  if (fs::is_directory(fs::symlink_status(dir / "manifests", ec))) {
    auto content = bundle::check_content(dir / "manifests", checks, log);
    problems.insert(problems.end(), content.begin(), content.end());
  }
  if (!problems.empty()) {
    return util::fail(Errc::invalid, bundle::validation_errors_text(problems));
  }
  log("info", "All validation tests have been completed successfully");
  return {};
}

} // namespace

void add_validate(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<ValidateFlags>();
  auto* sub = add_command(
      parent, ctx,
      {.use = "validate",
       .short_text = "Validate bundle image",
       .long_text = std::string(k_long),
       .example =
           "$ opm alpha bundle validate --tag quay.io/test/test-operator:latest --image-builder "
           "docker",
       .args = Args::none(),
       .deprecated = "This subcommand is deprecated and will be removed in a future release. "
                     "Migrate to operator-sdk bundle validate"});
  flags->tag_flag = sub->add_option("-t,--tag", flags->tag,
                                    "The path of a registry to pull from, image name and its tag "
                                    "that present the bundle image (e.g. "
                                    "quay.io/test/test-operator:latest)");
  sub->add_option("-b,--image-builder", flags->image_builder,
                  "Tool used to pull and unpack bundle images. One of: [none, docker, podman]");
  sub->add_option("-o,--optional-validators", flags->optional,
                  "Specifies optional validations to be run. One or more of: [operatorhub, "
                  "bundle-objects]");
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.run = [&ctx, flags]() -> Result<void> {
      OPM_TRY(check_required(ctx, {flags->tag_flag}));
      return as_cobra_error(run_validate(ctx, *flags));
    };
  });
}

} // namespace opm::cmd::alpha_bundle
