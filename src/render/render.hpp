#pragma once

#include "bundle/migrations.hpp"
#include "catalog/declcfg.hpp"
#include "render/image_ref_template.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace opm::render {

// The kinds of image a render takes (upstream's AllowedRefMask, for images).
struct AllowedImages {
  bool bundle = true;
  bool catalog = true;
  bool sqlite = true;
};

struct Options {
  // Image references are resolved by this, when set; otherwise they are refused. `allowed`
  // follows this Options' allow_bundle_images, allow_catalog_dirs and allow_sqlite_files.
  std::function<Result<catalog::DeclarativeConfig>(const std::string& ref,
                                                   const AllowedImages& allowed)>
      render_image;
  // The image reference given to bundle directories; without it their image is "".
  std::optional<ImageRefTemplate> image_ref_template;
  // Run after each reference's post-processing (--migrate-level); none when empty.
  std::vector<bundle::Migration> migrations;
  // False where upstream's AllowedRefMask leaves out bundle directories (render-graph):
  // `cannot render bundle directory "<ref>": not allowed`.
  bool allow_bundle_dirs = true;
  // False where the mask leaves out bundle images (render-graph, alpha list).
  bool allow_bundle_images = true;
  // False where the mask leaves out catalogs and SQLite databases, as files and as images
  // (templates, which take bundle images only): `cannot render declarative config directory:
  // not allowed`, `cannot render sqlite file: not allowed`, and the same for `... image`.
  bool allow_catalog_dirs = true;
  bool allow_sqlite_files = true;
  // References rendered at once; `render_image` must then be safe to call from many threads.
  std::size_t jobs = 1;
  // Told (done, total) as references finish, from worker threads, and (total, total) once
  // at the end, also after a failure; only when there are two references or more.
  std::function<void(std::size_t done, std::size_t total)> progress;
  // Called before a SQLite database file is read (for upstream's deprecation notice); may be
  // called from worker threads, once per such reference.
  std::function<void()> on_sqlite;
  // What a catalog directory's bundles keep of their objects: KeepObjects::csv_only where the
  // result is only written out (`opm render`).
  catalog::KeepObjects catalog_objects = catalog::KeepObjects::all;
};

// `opm render`: each reference (up to `jobs` at once, results kept in argument order) (an FBC
// directory, a bundle directory, or an image through `render_image`), post-processed as upstream
// does (bundle objects and csv metadata moved last, related images sorted by image, migrations),
// then concatenated. Errors are wrapped `render reference "<ref>": ...`, migration errors `migrate:
// ...`; the first failing reference in argument order is reported, and later ones are not started.
Result<catalog::DeclarativeConfig> render(const std::vector<std::string>& refs,
                                          const Options& options = {});

// The same, keeping each reference's config apart (in argument order) instead of merging them.
Result<std::vector<catalog::DeclarativeConfig>> render_each(const std::vector<std::string>& refs,
                                                            const Options& options = {});

// A SQLite index database read as FBC (sqlite::read_file) and checked as upstream checks the
// model it builds from one: a catalog that breaks a model rule fails with the "invalid index:"
// tree.
Result<catalog::DeclarativeConfig> render_sqlite_file(const std::filesystem::path& db);

// A file-based catalog directory, loaded as catalog::load_dir does (only bundle objects are
// decoded, as latest upstream's loader does; other property values are written back as read),
// refusing property entries that writing would change (LoadOptions::writable_properties).
Result<catalog::DeclarativeConfig>
load_catalog_dir(const std::filesystem::path& dir,
                 catalog::KeepObjects objects = catalog::KeepObjects::all);

// Upstream's per-reference tidy-up before writing: related images sorted, bundle
// objects moved last (alpha/action/render.go).
void normalize_for_output(catalog::DeclarativeConfig& cfg);

} // namespace opm::render
