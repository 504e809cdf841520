#include "serve/metas.hpp"

#include "json/writer.hpp"
#include "serve/digest.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <sys/stat.h>

namespace opm::serve {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_metas_dir = "metas";
constexpr std::string_view k_key_pattern = "^[a-zA-Z0-9][a-zA-Z0-9._-]*$";

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool valid_key_part(std::string_view s) {
  if (s.empty() || !is_alnum(s.front())) {
    return false;
  }
  for (char c : s.substr(1)) {
    if (!is_alnum(c) && c != '.' && c != '_' && c != '-') {
      return false;
    }
  }
  return true;
}

Result<void> check_part(std::string_view what, std::string_view value) {
  if (value.empty()) {
    return util::fail(Errc::invalid, fmt::format("invalid {}: must not be empty", what));
  }
  if (!valid_key_part(value)) {
    return util::fail(Errc::invalid, fmt::format("invalid {} {}: must match {}", what,
                                                 util::go_quote(value), k_key_pattern));
  }
  return {};
}

std::string file_name(std::string_view text) {
  Fnv64a hash;
  hash.update(text);
  return fmt::format("{:x}.json", hash.value());
}

fs::path meta_dir(const fs::path& json_dir, const std::pair<std::string, std::string>& key) {
  fs::path dir = json_dir / k_metas_dir / key.first;
  return key.second.empty() ? dir : dir / key.second;
}

Result<void> make_dir(const fs::path& dir, unsigned mode) {
  if (::mkdir(dir.c_str(), mode) != 0 && errno != EEXIST) {
    return util::fail(Errc::io, fmt::format("mkdir {}: {}", dir.string(), util::errno_text(errno)));
  }
  return {};
}

// The files of one metas directory that latest reads back: regular *.json entries.
Result<void> read_dir(const fs::path& dir, MetaFiles& out) {
  for (const auto& entry : OPM_TRY(util::sorted_entries(dir))) {
    if (entry.is_dir || !entry.name.ends_with(".json")) {
      continue;
    }
    out.emplace(entry.name, OPM_TRY(util::read_regular(dir / entry.name)));
  }
  return {};
}

} // namespace

Result<void> check_meta_key(std::string_view schema, std::string_view package) {
  OPM_TRY(check_part("schema", schema));
  if (!package.empty()) {
    OPM_TRY(check_part("packageName", package));
  }
  return {};
}

Result<MetaIndex> index_metas(const std::vector<catalog::Meta>& others) {
  MetaIndex out;
  for (const auto& meta : others) {
    if (auto ok = check_meta_key(meta.schema, meta.package); !ok) {
      return util::fail(Errc::invalid, "invalid custom schema meta: " + ok.error().message());
    }
    std::string text = json::to_text(meta.blob);
    text += '\n';
    std::string name = file_name(text);
    out[{meta.schema, meta.package}].emplace(std::move(name), std::move(text));
  }
  return out;
}

Result<void> write_metas(const fs::path& json_dir, const MetaIndex& metas, unsigned dir_mode,
                         const FileWriter& write_file) {
  if (metas.empty()) {
    return {};
  }
  OPM_TRY(make_dir(json_dir / k_metas_dir, dir_mode));
  for (const auto& [key, files] : metas) {
    OPM_TRY(make_dir(json_dir / k_metas_dir / key.first, dir_mode));
    const fs::path dir = meta_dir(json_dir, key);
    OPM_TRY(make_dir(dir, dir_mode));
    for (const auto& [name, text] : files) {
      OPM_TRY(write_file(dir / name, text));
    }
  }
  return {};
}

Result<MetaIndex> read_metas(const fs::path& json_dir) {
  MetaIndex out;
  const fs::path root = json_dir / k_metas_dir;
  auto schemas = util::sorted_entries(root);
  if (!schemas && schemas.error().code() == Errc::not_found) {
    return out;
  }
  if (!schemas) {
    return std::unexpected(schemas.error());
  }
  for (const auto& schema : *schemas) {
    if (!schema.is_dir) {
      continue;
    }
    MetaFiles unscoped;
    OPM_TRY(read_dir(root / schema.name, unscoped));
    if (!unscoped.empty()) {
      out[{schema.name, ""}] = std::move(unscoped);
    }
    for (const auto& pkg : OPM_TRY(util::sorted_entries(root / schema.name))) {
      if (!pkg.is_dir) {
        continue;
      }
      MetaFiles files;
      OPM_TRY(read_dir(root / schema.name / pkg.name, files));
      if (!files.empty()) {
        out[{schema.name, pkg.name}] = std::move(files);
      }
    }
  }
  return out;
}

} // namespace opm::serve
