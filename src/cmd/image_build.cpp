#include "cmd/image_build.hpp"

#include "cmd/registry_options.hpp"
#include "dockerfile/index.hpp"
#include "image/index_image.hpp"
#include "image/output.hpp"
#include "registry/pull_support.hpp"
#include "util/interrupt.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <charconv>

namespace opm::cmd {

Result<std::int64_t> source_date_epoch(const Context& ctx) {
  auto text = ctx.env.get("SOURCE_DATE_EPOCH");
  if (!text || text->empty()) {
    return 0;
  }
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value < 0) {
    return util::fail(Errc::usage,
                      fmt::format("invalid SOURCE_DATE_EPOCH {}", util::go_quote(*text)));
  }
  return value;
}

Result<std::string> build_index_without_tool(Context& ctx, registry::Puller& images,
                                             const index::BuildInput& input) {
  image::IndexImageBuild build{.database = input.database,
                               .base_image =
                                   input.binary_image.empty()
                                       ? std::string(dockerfile::k_default_index_binary_image)
                                       : input.binary_image,
                               .platform = {},
                               .created = OPM_TRY(source_date_epoch(ctx))};
  registry::Options options = registry_options(ctx);
  options.log =
      stderr_log(ctx, ctx.global.debug ? registry::LogLevel::debug : registry::LogLevel::warn);
  auto work = OPM_TRY(registry::make_temp_dir(options, "opm-index-build-", "build directory"));
  auto digest = [&]() -> Result<std::string> {
    auto built = OPM_TRY(image::build_index_image(build, images, work));
    return image::deliver(built, options, input.tag, build.created);
  }();
  std::error_code ec;
  std::filesystem::remove_all(work, ec);
  util::unregister_temp_path(work);
  return digest;
}

} // namespace opm::cmd
