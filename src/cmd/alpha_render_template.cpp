#include "bundle/migrations.hpp"
#include "catalog/write.hpp"
#include "cmd/commands.hpp"
#include "cmd/migrate_level.hpp"
#include "cmd/registry_options.hpp"
#include "graph/mermaid.hpp"
#include "render/render.hpp"
#include "template/composite.hpp"
#include "template/template.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>

namespace opm::cmd {

namespace {

struct RenderTemplateFlags {
  std::vector<std::string> args;
  std::string output = "json";
  std::string migrate_level;
};

// The template types as upstream's help lists them: " - basic\n - semver\n ...".
std::string type_list() {
  std::string text = "\n";
  for (auto type : templates::types()) {
    text += fmt::format(" - {}\n", type);
  }
  return text;
}

std::string long_text() {
  return "Render a catalog template with optional type specification.\n\n"
         "If TYPE is specified, it must be one of: " +
         type_list() +
         "\nIf TYPE is not specified, the template type will be auto-detected from the schema "
         "field in the input file.\n\n"
         "When FILE is '-' or not provided, the template is read from standard input.\n"
         "FILE must not match a supported TYPE name when TYPE is not provided, to avoid "
         "ambiguity.\n\n"
         "Examples:\n"
         "  opm alpha render-template basic template.yaml\n"
         "  opm alpha render-template semver template.yaml  \n"
         "  opm alpha render-template template.yaml  # auto-detect type\n"
         "  opm alpha render-template < template.yaml  # auto-detect from stdin";
}

Error usage_error(std::string message) { return Error(Errc::usage, std::move(message)); }

// Templates name bundle images; local directories and files are refused as upstream refuses
// them.
void only_bundle_images(render::Options& options) {
  options.allow_bundle_dirs = false;
  options.allow_catalog_dirs = false;
  options.allow_sqlite_files = false;
}

struct Invocation {
  std::string type;   // empty: detect from the input
  std::string file;   // "-": standard input
  bool named = false; // the type was given as an argument
};

Result<Invocation> parse_args(const std::vector<std::string>& args) {
  if (args.empty()) {
    return Invocation{"", "-", false};
  }
  if (args.size() == 1) {
    if (templates::is_type(args[0])) {
      return Invocation{args[0], "-", true};
    }
    return Invocation{"", args[0], false};
  }
  if (!templates::is_type(args[0])) {
    std::vector<std::string> names(templates::types().begin(), templates::types().end());
    return std::unexpected(
        usage_error(fmt::format("invalid template type {}, must be one of: [{}]",
                                util::go_quote(args[0]), util::join(names, " "))));
  }
  return Invocation{args[0], args[1], true};
}

Result<std::string> read_input(const std::string& file) {
  if (file == "-") {
    return std::string(std::istreambuf_iterator<char>(std::cin), {});
  }
  auto opened = util::OpenFile::open(file);
  auto text = opened ? opened->read_all() : Result<std::string>(std::unexpected(opened.error()));
  if (!text) {
    return std::unexpected(usage_error(
        fmt::format("unable to open {}: {}", util::go_quote(file), text.error().message())));
  }
  return text;
}

// A template that does not render fails on one line naming the template file, as `render`
// names a reference, not with the usage block (upstream's), which says nothing about a
// bundle image that cannot be pulled. Standard input has no name to give.
Error render_failure(Error&& e, const std::string& file) {
  Errc code = e.code() == Errc::usage ? Errc::invalid : e.code();
  Location where = e.where().value_or(Location{});
  Error failure(code, "rendering template: " + e.message());
  if (file == "-") {
    return failure;
  }
  if (where.file.empty()) {
    where.file = file;
  }
  return std::move(failure).located(std::move(where));
}

using Writer = std::function<Result<void>(const catalog::DeclarativeConfig&)>;

Result<Writer> output_writer(Context& ctx, const std::string& output) {
  if (output == "json" || output == "yaml") {
    auto format = output == "json" ? catalog::Format::json : catalog::Format::yaml;
    return Writer([&ctx, format](const catalog::DeclarativeConfig& cfg) -> Result<void> {
      catalog::write(cfg, format, ctx.out);
      return {};
    });
  }
  if (output == "mermaid") {
    return Writer([&ctx](const catalog::DeclarativeConfig& cfg) {
      // Upstream's NewMermaidWriter draws skip semantics unless told otherwise.
      return graph::write_mermaid(cfg, {.draw_v0_semantics = true}, ctx.out, ctx.err);
    });
  }
  return std::unexpected(usage_error(fmt::format(
      "invalid --output value {}, expected (json|yaml|mermaid)", util::go_quote(output))));
}

Result<void> run_render_template(Context& ctx, const RenderTemplateFlags& flags) {
  auto call = OPM_TRY(parse_args(flags.args));
  auto input = OPM_TRY(read_input(call.file));
  auto write = OPM_TRY(output_writer(ctx, flags.output));
  render::Options options;
  ImageRendering rendering;
  if (auto ok = render_images_with_registry(ctx, options, rendering); !ok) {
    return std::unexpected(usage_error("creating containerd registry: " + ok.error().message()));
  }
  auto migrations = migrations_for_level(flags.migrate_level);
  if (!migrations) {
    return std::unexpected(usage_error(migrations.error().message()));
  }
  options.migrations = std::move(*migrations);
  only_bundle_images(options);
  templates::RenderBundles render_bundles = [&options](const std::vector<std::string>& refs) {
    return render::render_each(refs, options);
  };
  if (call.type.empty()) {
    auto detected = templates::detect_type(input);
    if (!detected) {
      return std::unexpected(
          usage_error("auto-detecting template type: " + detected.error().message()));
    }
    call.type = *detected;
  }
  auto rendered = templates::render(call.type, input, render_bundles);
  if (!rendered) {
    return std::unexpected(render_failure(std::move(rendered).error(), call.file));
  }
  if (auto written = write(*rendered); !written) {
    return std::unexpected(usage_error("writing output: " + written.error().message()));
  }
  return {};
}

struct CompositeFlags {
  std::string output = "json";
  bool validate = true;
  std::string composite_file = "catalog/config.yaml";
  std::string catalog_file = "catalogs.yaml";
};

Error fatal(std::string message) { return Error(Errc::invalid, std::move(message)); }

// v1.26.5 fetched http(s) catalog configurations; only local files are read here.
Result<std::string> read_catalog_config(const std::string& file) {
  if (file.starts_with("http://") || file.starts_with("https://")) {
    return std::unexpected(
        fatal(fmt::format("fetching remote catalog config file {}: remote files are not supported",
                          util::go_quote(file))));
  }
  auto text = util::read_file(file);
  if (!text) {
    return std::unexpected(fatal(fmt::format("opening catalog config file {}: {}",
                                             util::go_quote(file), text.error().message())));
  }
  return text;
}

Result<void> run_composite(Context& ctx, const CompositeFlags& flags) {
  auto catalog_text = OPM_TRY(read_catalog_config(flags.catalog_file));
  auto catalogs = OPM_TRY(templates::read_catalog_config(catalog_text));
  templates::CompositeOptions options;
  options.validate = flags.validate;
  if (flags.output == "yaml") {
    options.output = catalog::Format::yaml;
  }
  render::Options render_options;
  ImageRendering rendering;
  if (auto ok = render_images_with_registry(ctx, render_options, rendering); !ok) {
    return std::unexpected(fatal("creating containerd registry: " + ok.error().message()));
  }
  only_bundle_images(render_options);
  options.render_bundles = [&render_options](const std::vector<std::string>& refs) {
    return render::render_each(refs, render_options);
  };
  auto text = util::read_file(flags.composite_file);
  if (!text) {
    return std::unexpected(
        fatal(fmt::format("opening composite config file {}: {}",
                          util::go_quote(flags.composite_file), text.error().message())));
  }
  if (flags.output != "json" && flags.output != "yaml") {
    // v1.26.5 checks the format only when a builder writes.
    options.output = catalog::Format::json;
  }
  return templates::render_composite(catalogs, *text, flags.composite_file, options);
}

// Latest has no `composite` command and reads `render-template composite` as a template file
// named "composite". v1.26.5's command runs when one of its own flags is given, or when its
// default catalog configuration is present and no file of that name is.
bool means_v1_composite(const CLI::App& sub) {
  for (const char* flag : {"--validate", "--composite-config", "--catalog-config"}) {
    if (sub.count(flag) > 0) {
      return true;
    }
  }
  std::error_code ec;
  return !std::filesystem::exists("composite", ec) &&
         std::filesystem::exists(CompositeFlags{}.catalog_file, ec);
}

// v1.26.5's `render-template composite`, kept out of latest's help.
void add_composite(CLI::App& parent, Context& ctx, Action& chosen,
                   std::shared_ptr<RenderTemplateFlags> render_flags) {
  auto flags = std::make_shared<CompositeFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = "composite",
                           .short_text = "Generate file-based catalogs from a catalog "
                                         "configuration file \nand a 'composite template' file",
                           .long_text = "Generate file-based catalogs from a catalog "
                                        "configuration file \nand a 'composite template' file",
                           .args = Args::maximum(0),
                           .hidden = true});
  sub->add_option("-o,--output", flags->output, "Output format (json|yaml)");
  sub->add_flag("--validate", flags->validate,
                "whether or not the created FBC should be validated (i.e 'opm validate')");
  sub->add_option("-c,--composite-config", flags->composite_file,
                  "File to use as the composite configuration file");
  sub->add_option("-f,--catalog-config", flags->catalog_file,
                  "File to use as the catalog configuration file");
  sub->callback([&ctx, &chosen, flags, sub, render_flags] {
    chosen.style = FatalStyle::go_log;
    if (means_v1_composite(*sub)) {
      chosen.command = sub;
      chosen.run = [&ctx, flags]() { return run_composite(ctx, *flags); };
      return;
    }
    chosen.command = sub->get_parent();
    render_flags->args = {"composite"};
    render_flags->output = flags->output;
    chosen.run = [&ctx, render_flags]() { return run_render_template(ctx, *render_flags); };
  });
}

} // namespace

void add_alpha_render_template(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<RenderTemplateFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = "render-template [TYPE] [FILE]",
                           .short_text = "Render a catalog template (auto-detects type from "
                                         "schema if TYPE not specified)",
                           .long_text = long_text(),
                           .args = Args::range(0, 2)},
                          &flags->args);
  auto* output = sub->add_option("-o,--output", flags->output, "Output format (json|yaml|mermaid)");
  auto* migrate = add_migrate_level_flag(*sub, flags->migrate_level);
  ctx.meta.make_persistent(output);
  ctx.meta.make_persistent(migrate);
  add_composite(*sub, ctx, chosen, flags);

  sub->callback([&ctx, &chosen, flags, sub] {
    if (!sub->get_subcommands().empty()) {
      return; // `composite` chose its own action
    }
    chosen.command = sub;
    chosen.style = FatalStyle::go_log;
    chosen.run = [&ctx, flags]() { return run_render_template(ctx, *flags); };
  });
}

} // namespace opm::cmd
