#include "migrate/migrate.hpp"

#include "util/fs.hpp"
#include "util/path.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <map>
#include <sstream>

namespace opm::migrate {

namespace fs = std::filesystem;

namespace {

// Where each object goes, as latest upstream's WriteFS groups them: everything of a package
// into its directory, package-less objects of other schemas into the root file.
struct Layout {
  std::map<std::string, catalog::DeclarativeConfig> packages;
  std::map<std::string, Location> first_seen;
  std::vector<catalog::Meta> root_others;
};

Error unwritable(std::string_view what, const Location& where) {
  return Error(Errc::invalid, fmt::format("cannot migrate {}: it names no package", what), where);
}

// The package's part of the layout; an object without a package has no place in it, and
// upstream would drop it silently.
Result<catalog::DeclarativeConfig*> part_of(Layout& layout, const std::string& package,
                                            std::string_view what, const Location& where) {
  if (package.empty()) {
    return std::unexpected(unwritable(what, where));
  }
  layout.first_seen.try_emplace(package, where);
  return &layout.packages[package];
}

std::string named(std::string_view schema, const std::string& name) {
  return fmt::format("{} {}", schema, util::go_quote(name));
}

Result<Layout> lay_out(const catalog::DeclarativeConfig& cfg) {
  Layout layout;
  for (const auto& p : cfg.packages) {
    OPM_TRY(part_of(layout, p.name, named(catalog::k_schema_package, p.name), p.where))
        ->packages.push_back(p);
  }
  for (const auto& c : cfg.channels) {
    OPM_TRY(part_of(layout, c.package, named(catalog::k_schema_channel, c.name), c.where))
        ->channels.push_back(c);
  }
  for (const auto& b : cfg.bundles) {
    OPM_TRY(part_of(layout, b.package, named(catalog::k_schema_bundle, b.name), b.where))
        ->bundles.push_back(b);
  }
  for (const auto& o : cfg.others) {
    if (o.package.empty()) {
      layout.root_others.push_back(o);
      continue;
    }
    OPM_TRY(part_of(layout, o.package, named(o.schema, o.name), o.where))->others.push_back(o);
  }
  for (const auto& d : cfg.deprecations) {
    OPM_TRY(part_of(layout, d.package, catalog::k_schema_deprecations, d.where))
        ->deprecations.push_back(d);
  }
  for (const auto& [name, part] : layout.packages) {
    if (auto checked = util::check_path_element("package name", name); !checked) {
      return std::unexpected(std::move(checked).error().located(layout.first_seen.at(name)));
    }
  }
  return layout;
}

Result<void> write_part(const catalog::DeclarativeConfig& part, catalog::Format format,
                        const fs::path& file) {
  std::ostringstream text;
  catalog::write(part, format, text);
  return util::write_file_atomic(file, text.str());
}

} // namespace

Result<void> check_output_dir(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    return {};
  }
  if (fs::is_directory(dir, ec) && fs::is_empty(dir, ec)) {
    return {};
  }
  return util::fail(Errc::invalid,
                    fmt::format("output dir {} must be empty", util::go_quote(dir.string())));
}

Result<void> write_packages(const catalog::DeclarativeConfig& cfg, catalog::Format format,
                            const fs::path& dir) {
  const auto layout = OPM_TRY(lay_out(cfg));
  const char* file = format == catalog::Format::json ? "catalog.json" : "catalog.yaml";
  return util::build_dir_atomic(dir, [&](const fs::path& staging) -> Result<void> {
    for (const auto& [name, part] : layout.packages) {
      std::error_code ec;
      fs::create_directory(staging / name, ec);
      if (ec) {
        return util::fail(Errc::io, fmt::format("mkdir {}: {}", (dir / name).string(),
                                                util::errno_text(ec.value())));
      }
      OPM_TRY(write_part(part, format, staging / name / file));
    }
    if (!layout.root_others.empty()) {
      catalog::DeclarativeConfig root;
      root.others = layout.root_others;
      OPM_TRY(write_part(root, format, staging / file));
    }
    return {};
  });
}

} // namespace opm::migrate
