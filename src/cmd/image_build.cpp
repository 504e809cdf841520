#include "cmd/image_build.hpp"

#include "cmd/registry_options.hpp"
#include "dockerfile/index.hpp"
#include "image/index_image.hpp"
#include "image/output.hpp"
#include "registry/location.hpp"
#include "registry/pull_support.hpp"
#include "util/interrupt.hpp"
#include "util/source_date.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

namespace opm::cmd {

Result<std::int64_t> source_date_epoch(const Context& ctx) {
  auto text = ctx.env.get("SOURCE_DATE_EPOCH");
  if (!text || text->empty()) {
    return 0;
  }
  auto value = util::parse_source_date_epoch(*text);
  if (!value) {
    return util::fail(Errc::usage,
                      fmt::format("invalid SOURCE_DATE_EPOCH {}", util::go_quote(*text)));
  }
  return *value;
}

Result<std::string> build_index_without_tool(Context& ctx, registry::Puller& images,
                                             const index::BuildInput& input) {
  auto created = OPM_TRY(source_date_epoch(ctx));
  image::IndexImageBuild build{.database = input.database,
                               .base_image =
                                   input.binary_image.empty()
                                       ? std::string(dockerfile::k_default_index_binary_image)
                                       : input.binary_image,
                               .platform = {},
                               .created = created};
  registry::Options options = registry_options(ctx);
  options.log =
      stderr_log(ctx, ctx.global.debug ? registry::LogLevel::debug : registry::LogLevel::warn);
  auto work = OPM_TRY(registry::make_temp_dir(options, "opm-index-build-", "build directory"));
  auto built = OPM_TRY(image::build_index_image(build, images, work.path()));
  auto location = OPM_TRY(registry::parse_image_location(input.tag));
  return image::deliver(built, options, location, build.created);
}

Result<void> build_and_deliver(Context& ctx, const registry::Options& options,
                               std::string_view temp_prefix, const std::string& tag,
                               std::int64_t created, const ImageBuilder& build) {
  util::InterruptScope interrupts;
  auto work = OPM_TRY(registry::make_temp_dir(options, temp_prefix, "build directory"));
  auto puller = registry::make_puller(options);
  auto result = [&]() -> Result<std::string> {
    auto built = OPM_TRY(build(*puller, work.path()));
    auto location = OPM_TRY(registry::parse_image_location(tag));
    return image::deliver(built, options, location, created);
  }();
  puller->destroy();
  if (!result) {
    return std::unexpected(std::move(result).error());
  }
  ctx.out << *result << "\n";
  return {};
}

} // namespace opm::cmd
