#include "render/render.hpp"

#include "bundle/bundle.hpp"
#include "catalog/load.hpp"
#include "sqlite/export.hpp"
#include "util/fs.hpp"
#include "util/go_sort.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"
#include "validate/validate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <sys/stat.h>

namespace opm::render {

namespace {

// Upstream's isBundle: the directory has "manifests" and "metadata" sub-directories
// (symbolic links do not count).
Result<bool> is_bundle_dir(const std::string& path) {
  auto entries = OPM_TRY(util::sorted_entries(path));
  bool manifests = false;
  bool metadata = false;
  for (const auto& e : entries) {
    manifests = manifests || (e.is_dir && e.name == "manifests");
    metadata = metadata || (e.is_dir && e.name == "metadata");
  }
  return manifests && metadata;
}

Result<catalog::DeclarativeConfig> render_bundle_dir(const std::string& ref,
                                                     const Options& options) {
  auto parsed = OPM_TRY(bundle::parse_dir(ref));
  std::string image;
  if (options.image_ref_template) {
    auto templated = [&]() -> Result<std::string> {
      auto version = OPM_TRY(bundle::template_version(parsed));
      return options.image_ref_template->execute({parsed.package, parsed.name, version});
    }();
    if (!templated) {
      return std::unexpected(std::move(templated).error().wrap(fmt::format(
          "failed templating image reference from bundle for {}", util::go_quote(ref))));
    }
    image = std::move(*templated);
  }
  catalog::DeclarativeConfig cfg;
  cfg.bundles.push_back(OPM_TRY(bundle::to_declcfg(std::move(parsed), image)));
  return cfg;
}

// SQLite database files start with "SQLite format 3"; upstream checks the first four bytes.
bool is_sqlite_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<char, 4> magic{};
  return in.read(magic.data(), magic.size()) && std::string_view(magic.data(), 4) == "SQLi";
}

Result<catalog::DeclarativeConfig> render_one(const std::string& ref, const Options& options) {
  struct stat st {};
  if (::stat(ref.c_str(), &st) == 0) {
    if (S_ISREG(st.st_mode) && is_sqlite_file(ref)) {
      if (!options.allow_sqlite_files) {
        return util::fail(Errc::not_allowed, "cannot render sqlite file: not allowed");
      }
      if (options.on_sqlite) {
        options.on_sqlite();
      }
      return render_sqlite_file(ref);
    }
    if (!S_ISDIR(st.st_mode)) {
      return util::fail(Errc::not_allowed,
                        fmt::format("ref {} is not a directory: not allowed", util::go_quote(ref)));
    }
    if (OPM_TRY(is_bundle_dir(ref))) {
      if (!options.allow_bundle_dirs) {
        return util::fail(
            Errc::not_allowed,
            fmt::format("cannot render bundle directory {}: not allowed", util::go_quote(ref)));
      }
      return render_bundle_dir(ref, options);
    }
    if (!options.allow_catalog_dirs) {
      return util::fail(Errc::not_allowed,
                        "cannot render declarative config directory: not allowed");
    }
    return load_catalog_dir(ref, options.catalog_objects);
  }
  if (options.render_image) {
    return options.render_image(ref, {.bundle = options.allow_bundle_images,
                                      .catalog = options.allow_catalog_dirs,
                                      .sqlite = options.allow_sqlite_files});
  }
  return util::fail(Errc::invalid, "rendering image references is not supported yet");
}

// One reference rendered and tidied as upstream does before concatenating.
Result<catalog::DeclarativeConfig> render_and_tidy(const std::string& ref, const Options& options) {
  auto cfg = render_one(ref, options);
  if (!cfg) {
    return std::unexpected(
        std::move(cfg).error().wrap(fmt::format("render reference {}", util::go_quote(ref))));
  }
  normalize_for_output(*cfg);
  if (auto migrated = bundle::run_migrations(options.migrations, *cfg); !migrated) {
    return std::unexpected(std::move(migrated).error().wrap("migrate"));
  }
  return cfg;
}

} // namespace

Result<catalog::DeclarativeConfig> load_catalog_dir(const std::filesystem::path& dir,
                                                    catalog::KeepObjects objects) {
  return catalog::load_dir(dir, {.writable_properties = true, .keep_objects = objects});
}

Result<catalog::DeclarativeConfig> render_sqlite_file(const std::filesystem::path& db) {
  auto cfg = OPM_TRY(sqlite::read_file(db));
  if (auto outcome = validate::check(cfg); !outcome.passed()) {
    return util::fail(Errc::invalid, outcome.message);
  }
  return cfg;
}

void normalize_for_output(catalog::DeclarativeConfig& cfg) {
  for (auto& b : cfg.bundles) {
    std::stable_partition(b.properties.begin(), b.properties.end(), [](const catalog::Property& p) {
      return p.type != catalog::k_prop_bundle_object && p.type != catalog::k_prop_csv_metadata;
    });
    // sort.Slice, not a stable sort: images listed twice keep Go's order.
    util::go_sort_slice(b.related_images,
                        [](const catalog::RelatedImage& x, const catalog::RelatedImage& y) {
                          return x.image < y.image;
                        });
  }
}

Result<std::vector<catalog::DeclarativeConfig>> render_each(const std::vector<std::string>& refs,
                                                            const Options& options) {
  std::vector<std::optional<Result<catalog::DeclarativeConfig>>> rendered(refs.size());
  bool show_progress = options.progress && refs.size() > 1;
  std::mutex progress_mutex;
  std::size_t done = 0;
  util::run_indexed_until_failure(refs.size(), options.jobs, [&](std::size_t i) {
    const auto& slot = rendered[i].emplace(render_and_tidy(refs[i], options));
    if (show_progress) {
      std::lock_guard lock(progress_mutex);
      if (++done < refs.size()) {
        options.progress(done, refs.size());
      }
    }
    return slot.has_value();
  });
  if (show_progress) {
    options.progress(refs.size(), refs.size());
  }
  std::vector<catalog::DeclarativeConfig> all;
  all.reserve(refs.size());
  for (auto& slot : rendered) {
    // Every reference before the first failure was rendered.
    if (!*slot) {
      return std::unexpected(std::move(*slot).error());
    }
    all.push_back(std::move(**slot));
  }
  return all;
}

Result<catalog::DeclarativeConfig> render(const std::vector<std::string>& refs,
                                          const Options& options) {
  auto each = OPM_TRY(render_each(refs, options));
  catalog::DeclarativeConfig all;
  for (auto& cfg : each) {
    all.merge(std::move(cfg));
  }
  return all;
}

} // namespace opm::render
