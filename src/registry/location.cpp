#include "registry/location.hpp"

namespace opm::registry {

namespace {

constexpr std::string_view k_layout_prefix = "oci:";
constexpr std::string_view k_archive_prefix = "docker-archive:";

LayoutLocation layout_location(std::string_view rest) {
  auto colon = rest.rfind(':');
  if (colon != std::string_view::npos && rest.find('/', colon) == std::string_view::npos) {
    return {std::filesystem::path(rest.substr(0, colon)), std::string(rest.substr(colon + 1))};
  }
  return {std::filesystem::path(rest), {}};
}

ArchiveLocation archive_location(std::string_view rest) {
  auto colon = rest.find(':');
  if (colon == std::string_view::npos) {
    return {std::filesystem::path(rest), {}};
  }
  return {std::filesystem::path(rest.substr(0, colon)), std::string(rest.substr(colon + 1))};
}

} // namespace

Result<ImageLocation> parse_image_location(std::string_view text) {
  if (text.starts_with(k_layout_prefix)) {
    return ImageLocation{std::string(text), layout_location(text.substr(k_layout_prefix.size()))};
  }
  if (text.starts_with(k_archive_prefix)) {
    return ImageLocation{std::string(text), archive_location(text.substr(k_archive_prefix.size()))};
  }
  auto reference = OPM_TRY(parse_canonical(text));
  return ImageLocation{std::string(text), std::move(reference)};
}

ImageLocation remote_location(Reference ref) {
  std::string text = ref.to_string();
  return ImageLocation{std::move(text), std::move(ref)};
}

} // namespace opm::registry
