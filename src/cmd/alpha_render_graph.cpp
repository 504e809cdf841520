#include "cmd/commands.hpp"
#include "cmd/registry_options.hpp"
#include "graph/mermaid.hpp"
#include "render/render.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <memory>

namespace opm::cmd {

namespace {

// -p naming a package the catalog does not have gives an empty graph, as upstream; say why.
void warn_unknown_package(Context& ctx, const catalog::DeclarativeConfig& cfg,
                          const std::string& name) {
  if (name.empty()) {
    return;
  }
  auto named = [&name](const auto& x) { return x.package == name; };
  bool found = std::any_of(cfg.packages.begin(), cfg.packages.end(),
                           [&name](const catalog::Package& p) { return p.name == name; }) ||
               std::any_of(cfg.channels.begin(), cfg.channels.end(), named) ||
               std::any_of(cfg.bundles.begin(), cfg.bundles.end(), named);
  if (!found) {
    ctx.err << util::go_log_line(
        fmt::format("package {} is not in the catalog: the graph is empty", util::go_quote(name)));
  }
}

} // namespace

namespace {

struct RenderGraphFlags {
  std::vector<std::string> refs;
  graph::MermaidOptions mermaid;
};

constexpr std::string_view k_example = R"(
#
# Output channel graph of a catalog in mermaid format
#
$ opm alpha render-graph quay.io/operatorhubio/catalog:latest

#
# Output channel graph of a catalog and generate a scaled vector graphic (SVG) representation
#
$ opm alpha render-graph quay.io/operatorhubio/catalog:latest | \
    docker run --rm -i -v "$PWD":/data ghcr.io/mermaid-js/mermaid-cli/mermaid-cli -o /data/operatorhubio-catalog.svg

# Note:  mermaid has a default maxTextSize of 30 000 characters.  To override this, generate a JSON-formatted initialization file for
# mermaid like this (using 300 000 for the limit):
$ cat << EOF > ./mermaid.json
{ "maxTextSize": 300000 }
EOF
# and then pass the file for initialization configuration, via the '-c' option, like:
$ opm alpha render-graph quay.io/operatorhubio/catalog:latest | \
    docker run --rm -i -v "$PWD":/data ghcr.io/mermaid-js/mermaid-cli/mermaid-cli -c /data/mermaid.json -o /data/operatorhubio-catalog.svg


		)";

} // namespace

void add_alpha_render_graph(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<RenderGraphFlags>();
  auto* sub = add_command(
      parent, ctx,
      {.use = "render-graph [index-image | fbc-dir]",
       .short_text = "Generate mermaid-formatted view of upgrade graph of operators in an index",
       .long_text = "Generate mermaid-formatted view of upgrade graphs of operators in an index",
       .example = std::string(k_example),
       .args = Args::minimum(1)},
      &flags->refs);
  sub->add_option("--minimum-edge", flags->mermaid.minimum_edge,
                  "the channel edge to be used as the lower bound of the set of edges composing "
                  "the upgrade graph; default is to include all edges");
  sub->add_option("-p,--package-name", flags->mermaid.package_name,
                  "a specific package name to filter output; default is to include all packages "
                  "in reference");
  sub->add_flag("--draw-v0-semantics", flags->mermaid.draw_v0_semantics,
                "whether to indicate OLMv0 semantics in the output; default is to simply "
                "represent the upgrade graph");

  sub->callback([&ctx, &chosen, flags, sub] {
    chosen.command = sub;
    chosen.style = FatalStyle::go_log;
    chosen.run = [&ctx, flags]() -> Result<void> {
      ImageRendering rendering;
      auto options = OPM_TRY(catalog_render_options(ctx, rendering));
      auto cfg = OPM_TRY(render::render(flags->refs, options));
      warn_unknown_package(ctx, cfg, flags->mermaid.package_name);
      return graph::write_mermaid(cfg, flags->mermaid, ctx.out, ctx.err);
    };
  });
}

} // namespace opm::cmd
