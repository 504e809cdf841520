#include "image/index_image.hpp"

#include "dockerfile/index.hpp"
#include "image/detail/assembly.hpp"
#include "registry/layer_writer.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

namespace opm::image {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

constexpr std::string_view k_index_history_comment = "opm index";
constexpr std::string_view k_port = "50051/tcp";

// /database (0755, as ADD creates missing parents) and the database file with its own mode.
Result<detail::NewLayer> write_database_layer(const IndexImageBuild& build, const fs::path& work,
                                              const detail::Flavor& flavor) {
  struct stat st {};
  if (::stat(build.database.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return util::fail(
        Errc::io, fmt::format("index database {} is not a regular file", build.database.string()));
  }
  std::string location(dockerfile::k_index_database_location);
  registry::LayerEntry directory;
  directory.name = "database";
  directory.type = registry::LayerEntry::Type::directory;
  directory.mode = 0755;
  registry::LayerEntry database;
  database.name = location.substr(1);
  database.mode = static_cast<std::uint32_t>(st.st_mode) & 07777;
  database.source = build.database;
  std::vector<registry::LayerEntry> entries = {directory, database};
  fs::path file = work / "database.tar.gz";
  auto written = OPM_TRY(registry::write_layer(entries, build.created, file, flavor.layer()));
  return detail::NewLayer{written, file};
}

// The base config with what upstream's index Dockerfile adds, in its order of instructions.
std::string index_config(const IndexImageBuild& build, Json config, const detail::NewLayer& layer) {
  std::string location(dockerfile::k_index_database_location);
  std::string label(dockerfile::k_index_database_label);
  auto entry = [&](std::string created_by, bool empty) {
    return detail::history_entry(build.created, std::move(created_by), k_index_history_comment,
                                 empty);
  };
  std::vector<Json> history = {
      entry(fmt::format("LABEL {}={}", label, location), true),
      entry(fmt::format("ADD database/index.db {}", location), false), entry("EXPOSE 50051", true),
      entry("ENTRYPOINT [\"/bin/opm\"]", true),
      entry(fmt::format("CMD [\"registry\", \"serve\", \"--database\", \"{}\"]", location), true)};
  Json& c = detail::prepare_config(config, build.created, history, {layer});
  c["Labels"][label] = location;
  Json& ports = c["ExposedPorts"];
  if (!ports.is_object()) {
    ports = Json::object();
  }
  ports[std::string(k_port)] = Json::object();
  c["Entrypoint"] = Json::array({"/bin/opm"});
  c["Cmd"] = Json::array({"registry", "serve", "--database", location});
  return config.dump();
}

} // namespace

Result<BuiltImage> build_index_image(const IndexImageBuild& build, registry::Puller& images,
                                     const fs::path& work) {
  std::optional<registry::Reference> canonical;
  auto bases = OPM_TRY(detail::read_bases(build.base_image, build.platform, images, canonical));
  auto layer = OPM_TRY(write_database_layer(build, work, bases.front().flavor));
  auto image = detail::assemble_all(std::move(bases), {layer}, [&](Json config) {
    return index_config(build, std::move(config), layer);
  });
  image.base_reference = canonical;
  return image;
}

} // namespace opm::image
