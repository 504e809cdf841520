#include "cmd/commands.hpp"
#include "cmd/registry_options.hpp"
#include "list/images.hpp"
#include "list/list.hpp"
#include "render/render.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

namespace opm::cmd {

namespace {

constexpr std::string_view k_note =
    "NOTE: This is meant to be used for convenience and human-readability only. The\n"
    "CLI and output format are subject to change, so it is not recommended to depend\n"
    "on the output in any programs or scripts. Use the \"render\" subcommand to do\n"
    "more complex processing and automation.";

using list::Listing;

Result<std::string> list_catalog(Context& ctx, const std::vector<std::string>& args, Listing what) {
  ImageRendering rendering;
  auto options = OPM_TRY(catalog_render_options(ctx, rendering));
  auto render = [&options](const std::string& ref) { return render::render({ref}, options); };
  return list::run({.ref = args.at(0), .what = what, .package = args.size() > 1 ? args[1] : ""},
                   render);
}

void add_listing(CLI::App& parent, Context& ctx, Action& chosen, Listing what, CommandSpec spec) {
  auto args = std::make_shared<std::vector<std::string>>();
  auto* sub = add_command(parent, ctx, std::move(spec), args.get());
  sub->callback([&ctx, &chosen, sub, args, what] {
    chosen.command = sub;
    chosen.style = FatalStyle::logrus;
    chosen.run = [&ctx, args, what]() -> Result<void> {
      ctx.out << OPM_TRY(list_catalog(ctx, *args, what));
      return {};
    };
  });
}

Result<std::string> list_catalog_images(Context& ctx, const std::string& ref,
                                        const std::string& output) {
  if (output != "text" && output != "json") {
    return util::fail(Errc::invalid, fmt::format("invalid --output value {}, expected (text|json)",
                                                 util::go_quote(output)));
  }
  render::Options options;
  options.on_sqlite = sqlite_notice_once(ctx);
  ImageRendering rendering;
  OPM_TRY(render_images_with_registry(ctx, options, rendering));
  auto cfg = OPM_TRY(render::render({ref}, options));
  return list::list_images(cfg, output == "json");
}

void add_image_listing(CLI::App& parent, Context& ctx, Action& chosen) {
  struct Flags {
    std::vector<std::string> args;
    std::string output = "text";
  };
  auto flags = std::make_shared<Flags>();
  auto* sub = add_command(
      parent, ctx,
      {.use = "images <indexRef>",
       .short_text = "List the images a catalog references",
       .long_text = "The \"images\" command lists every bundle image and related image the "
                    "specified catalog\nreferences, once each and sorted: the images to mirror "
                    "for it. With -o json, each\nimage comes with the bundles that use it.",
       .args = Args::exact(1)},
      &flags->args);
  sub->add_option("-o,--output", flags->output, "Output format (text|json)");
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.style = FatalStyle::logrus;
    chosen.run = [&ctx, flags]() -> Result<void> {
      ctx.out << OPM_TRY(list_catalog_images(ctx, flags->args.at(0), flags->output));
      return {};
    };
  });
}

} // namespace

void add_alpha_list(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* group =
      add_command(parent, ctx,
                  {.use = "list",
                   .short_text = "List contents of an index",
                   .long_text = fmt::format(
                       "The list subcommands print the contents of an index.\n\n{}", k_note),
                   .args = Args::arbitrary(),
                   .runnable = false});
  add_listing(
      *group, ctx, chosen, Listing::packages,
      {.use = "packages <indexRef>",
       .short_text = "List packages in an index",
       .long_text = fmt::format(
           "The \"channels\" command lists the channels from the specified index.\n\n{}", k_note),
       .args = Args::exact(1)});
  add_listing(*group, ctx, chosen, Listing::channels,
              {.use = "channels <indexRef> [packageName]",
               .short_text = "List package channels in an index",
               .long_text = fmt::format("The \"channels\" command lists the channels from the "
                                        "specified index and package.\n\n{}",
                                        k_note),
               .args = Args::range(1, 2)});
  add_listing(*group, ctx, chosen, Listing::bundles,
              {.use = "bundles <indexRef> <packageName>",
               .short_text = "List package bundles in an index",
               .long_text = fmt::format("The \"bundles\" command lists the bundles from the "
                                        "specified index and package.\n\n{}",
                                        k_note),
               .args = Args::range(1, 2)});
  add_image_listing(*group, ctx, chosen);
}

} // namespace opm::cmd
