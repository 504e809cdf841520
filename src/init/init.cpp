#include "init/init.hpp"

#include "init/mediatype.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <optional>

namespace opm::init {

Result<catalog::Package> make_package(const Options& options) {
  std::optional<util::OpenFile> icon;
  if (!options.icon.empty()) {
    auto f = util::OpenFile::open(options.icon);
    if (!f) {
      return std::unexpected(std::move(f).error().wrap("open icon file"));
    }
    icon.emplace(std::move(*f));
  }
  std::optional<util::OpenFile> description;
  if (!options.description.empty()) {
    auto f = util::OpenFile::open(options.description);
    if (!f) {
      return std::unexpected(std::move(f).error().wrap("open description file"));
    }
    description.emplace(std::move(*f));
  }

  catalog::Package pkg;
  pkg.name = options.package;
  pkg.default_channel = options.default_channel;
  if (description) {
    auto text = description->read_all();
    if (!text) {
      return std::unexpected(std::move(text).error().wrap("read description"));
    }
    pkg.description = std::move(*text);
  }
  if (icon) {
    auto data = icon->read_all();
    if (!data) {
      return std::unexpected(std::move(data).error().wrap("read icon"));
    }
    auto mediatype = detect_mediatype(*data);
    if (!mediatype) {
      return std::unexpected(std::move(mediatype).error().wrap("detect icon mediatype"));
    }
    if (mediatype->substr(0, mediatype->find('/')) != "image") {
      return util::fail(Errc::invalid, fmt::format("detected invalid type {}: not an image",
                                                   util::go_quote(*mediatype)));
    }
    pkg.icon = catalog::Icon{std::move(*data), std::move(*mediatype)};
  }
  return pkg;
}

} // namespace opm::init
