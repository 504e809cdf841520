// `opm alpha catalog build`: a catalog image built and pushed without a container engine.
#include "cmd/commands.hpp"
#include "cmd/image_build.hpp"
#include "cmd/registry_options.hpp"
#include "cmd/serve_program.hpp"
#include "dockerfile/fbc.hpp"
#include "image/catalog_image.hpp"
#include "registry/cache_dir.hpp"
#include "registry/push.hpp"
#include "serve/serve.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <sstream>

namespace opm::cmd {

namespace {

constexpr std::string_view k_default_base = "quay.io/operator-framework/opm:latest";

constexpr std::string_view k_build_long =
    R"(Build a catalog image from a file-based catalog directory without a container engine.

The image holds what a build of the Dockerfile from "opm generate dockerfile" holds: the
base image's layers, the catalog at /configs, the serve cache at /tmp/cache (as
"opm serve --cache-only" writes it), the label
operators.operatorframework.io.index.configs.v1=/configs plus any extra labels, and the
base image's opm as entrypoint. A multi-platform base image gives a multi-platform catalog
image unless --platform picks one platform.

The tag is where the image goes: a registry reference (pushed), oci:DIR[:TAG] (an OCI
image layout) or docker-archive:FILE. The digest of the image (or index) is printed. The
same inputs give the same digest; every timestamp is SOURCE_DATE_EPOCH when it is set,
else the Unix epoch.)";

struct BuildFlags {
  std::vector<std::string> args;
  std::string tag;
  std::string base_image{k_default_base};
  std::vector<std::string> labels;
  std::string platform;
};

// Runs our serve in cache-only mode, exactly as the generated Dockerfile's builder stage does.
image::CacheWriter serve_cache_writer() {
  return [](const std::filesystem::path& configs,
            const std::filesystem::path& cache_dir) -> Result<void> {
    serve::Options o;
    o.configs_dir = configs.string();
    o.cache_dir = cache_dir.string();
    o.cache_only = true;
    o.termination_log = "/dev/null";
    std::ostringstream log;
    const serve::ModuleEntry* module = OPM_TRY(serve_module());
    auto r = module->run(o, log);
    if (!r) {
      return std::unexpected(std::move(r).error().wrap("writing the serve cache"));
    }
    return {};
  };
}

Result<void> run_build(Context& ctx, const BuildFlags& f) {
  OPM_TRY(registry::check_flag_combination(ctx.global.use_http, ctx.global.skip_tls_verify,
                                           ctx.global.skip_tls));
  auto labels = OPM_TRY(dockerfile::parse_labels(f.labels));
  std::error_code ec;
  if (!std::filesystem::is_directory(f.args.at(0), ec)) {
    return util::fail(Errc::invalid,
                      fmt::format("catalog directory {} is not a directory", f.args.at(0)));
  }
  if (f.tag.empty()) {
    return util::fail(Errc::usage, "required flag(s) \"tag\" not set");
  }
  auto created = OPM_TRY(source_date_epoch(ctx));
  image::CatalogBuild build{f.args.at(0), f.base_image, std::move(labels), f.platform, created, {}};
  registry::Options options = registry_options(ctx);
  options.platform = f.platform;
  options.log =
      stderr_log(ctx, ctx.global.debug ? registry::LogLevel::debug : registry::LogLevel::warn);
  // Kept layers are read until the image is delivered: the cache is held that long.
  std::optional<registry::CacheUse> cache_use;
  if (!options.cache_disabled && !options.cache_dir.empty()) {
    cache_use.emplace(registry::CacheUse::shared(options.cache_dir));
    build.layer_cache = options.cache_dir / registry::k_layer_cache_dir;
  }
  return build_and_deliver(ctx, options, "opm-catalog-build-", f.tag, build.created,
                           [&build](registry::Puller& images, const std::filesystem::path& work) {
                             return image::build_catalog(build, images, serve_cache_writer(), work);
                           });
}

void add_catalog_build(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<BuildFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = "build <fbcRootDir>",
                           .short_text = "Build a catalog image without a container engine",
                           .long_text = std::string(k_build_long),
                           .args = Args::exact(1),
                           .in_serve_program = true},
                          &flags->args);
  sub->add_option("-t,--tag", flags->tag,
                  "Where the image goes: a registry reference, oci:DIR[:TAG] or "
                  "docker-archive:FILE.");
  sub->add_option("-i,--base-image", flags->base_image, "Image base to use to build catalog.");
  sub->add_option("-l,--extra-labels", flags->labels,
                  "Extra labels to include in the image. Labels should be of the form "
                  "'key=value'.");
  sub->add_option("--platform", flags->platform,
                  "Build for this platform only (os/arch[/variant]) of a multi-platform base "
                  "image.");
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.style = FatalStyle::logrus;
    chosen.run = [&ctx, flags]() -> Result<void> { return run_build(ctx, *flags); };
  });
}

} // namespace

void add_alpha_catalog(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* group = add_command(
      parent, ctx,
      {.use = "catalog", .short_text = "Build file-based catalog images", .runnable = false});
  add_catalog_build(*group, ctx, chosen);
}

} // namespace opm::cmd
