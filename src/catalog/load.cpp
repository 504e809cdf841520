#include "catalog/load.hpp"

#include "catalog/bundle_objects.hpp"
#include "catalog/ignore.hpp"
#include "catalog/property.hpp"
#include "catalog/typed_decode.hpp"
#include "catalog/write.hpp"
#include "json/go_json.hpp"
#include "json/unmarshal.hpp"
#include "json/writer.hpp"
#include "util/fs.hpp"
#include "util/go_format.hpp"
#include "util/page_buffer.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <dirent.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <set>
#include <sys/stat.h>
#include <thread>

namespace opm::catalog {

namespace {

constexpr std::string_view k_ignore_file = ".indexignore";

// ---- walking -----------------------------------------------------------------------------

struct Walk {
  std::string root;                // the directory as given, for Go-style error paths
  std::vector<std::string> files;  // relative paths, walk order
  std::vector<std::string> ignore; // relative paths of .indexignore files, walk order
};

std::string go_path(const std::string& root, std::string_view rel) {
  return rel.empty() ? root : fmt::format("{}/{}", root, rel);
}

Result<void> walk_dir(Walk& walk, const std::string& rel) {
  std::string dir_path = go_path(walk.root, rel);
  auto entries = OPM_TRY(util::sorted_entries(dir_path));
  for (auto& e : entries) {
    std::string child = rel.empty() ? e.name : fmt::format("{}/{}", rel, e.name);
    if (e.is_dir) {
      OPM_TRY(walk_dir(walk, child));
    } else if (e.name == k_ignore_file) {
      walk.ignore.push_back(std::move(child));
    } else {
      walk.files.push_back(std::move(child));
    }
  }
  return {};
}

// ---- Go's fmt verbs, for the envelope's type error ---------------------------------------

std::string go_type_name(const Json& v) {
  switch (v.type()) {
  case Json::value_t::string:
    return "string";
  case Json::value_t::boolean:
    return "bool";
  case Json::value_t::array:
    return "[]interface {}";
  case Json::value_t::object:
    return "map[string]interface {}";
  default:
    return "float64";
  }
}

std::string go_fmt(const Json& v, bool t_verb);

std::string go_fmt_scalar(const Json& v) {
  switch (v.type()) {
  case Json::value_t::string:
    return v.get<std::string>();
  case Json::value_t::boolean:
    return v.get<bool>() ? "true" : "false";
  case Json::value_t::null:
    return "<nil>";
  default:
    return util::format_float_g(v.get<double>());
  }
}

std::string go_fmt(const Json& v, bool t_verb) {
  if (v.is_array()) {
    std::vector<std::string> parts;
    for (const auto& item : v) {
      parts.push_back(go_fmt(item, t_verb));
    }
    return fmt::format("[{}]", util::join(parts, " "));
  }
  if (v.is_object()) {
    std::vector<std::string> parts;
    for (auto it = v.begin(); it != v.end(); ++it) {
      Json key = it.key();
      parts.push_back(fmt::format("{}:{}", go_fmt(key, t_verb), go_fmt(it.value(), t_verb)));
    }
    return fmt::format("map[{}]", util::join(parts, " "));
  }
  if (!t_verb || v.is_boolean()) {
    return go_fmt_scalar(v);
  }
  if (v.is_null()) {
    return "%!t(<nil>)";
  }
  return fmt::format("%!t({}={})", go_type_name(v), go_fmt_scalar(v));
}

// ---- the envelope ------------------------------------------------------------------------

struct Envelope {
  std::string schema;
  std::string package;
  std::string name;
};

// Keys (lower-cased, each with its spellings) that differ only by case are refused.
Result<void> check_folded_keys(const std::map<std::string, std::set<std::string>>& folded) {
  std::vector<std::string> dups;
  for (const auto& [key, originals] : folded) {
    if (originals.size() > 1) {
      std::vector<std::string> names(originals.begin(), originals.end());
      dups.push_back(fmt::format("duplicate keys for key {}: [{}]", util::go_quote(key),
                                 util::join(names, " ")));
    }
  }
  if (dups.size() == 1) {
    return util::fail(Errc::invalid, dups.front());
  }
  if (dups.size() > 1) {
    return util::fail(Errc::invalid, fmt::format("[{}]", util::join(dups, ", ")));
  }
  return {};
}

// Upstream's Meta.UnmarshalJSON: schema/package/name looked up case-insensitively,
// keys that differ only by case rejected, the three values must be strings.
Result<Envelope> read_envelope(const Json& doc) {
  if (!doc.is_object()) {
    // Go decodes the envelope into a map: null gives an empty one, anything else fails.
    if (auto not_a_map = json::map_type_error(doc, json::marshal(doc))) {
      return util::fail(Errc::invalid, std::move(*not_a_map));
    }
    return Envelope{};
  }
  // Keys can differ only by case when one of them has an upper-case letter. Most documents
  // have none, and their keys are looked up as they are.
  const auto& members = doc.get_ref<const Json::object_t&>();
  const bool any_upper = std::ranges::any_of(members, [](const auto& member) {
    return std::ranges::any_of(member.first, [](char c) { return c >= 'A' && c <= 'Z'; });
  });
  std::map<std::string, std::set<std::string>> folded;
  if (any_upper) {
    for (const auto& member : members) {
      folded[util::ascii_lower(member.first)].insert(member.first);
    }
  }
  OPM_TRY(check_folded_keys(folded));
  Envelope env;
  const std::pair<std::string_view, std::string*> wanted[] = {
      {"schema", &env.schema}, {"package", &env.package}, {"name", &env.name}};
  for (const auto& [field, out] : wanted) {
    const std::string* found = nullptr;
    if (any_upper) {
      if (auto it = folded.find(std::string(field)); it != folded.end()) {
        found = &*it->second.begin();
      }
    } else if (auto it = members.find(field); it != members.end()) {
      found = &it->first;
    }
    if (found == nullptr) {
      continue;
    }
    const std::string& key = *found;
    const Json& value = doc.at(key);
    if (!value.is_string()) {
      return util::fail(Errc::invalid,
                        fmt::format("expected value for key {} to be a string, got {}: {}",
                                    util::go_quote(key), go_fmt(value, true),
                                    go_fmt(value, false)));
    }
    *out = value.get<std::string>();
  }
  return env;
}

template <typename T> Result<T> located(Result<T> r, std::string_view wrap, const Location& where) {
  if (!r) {
    return std::unexpected(std::move(r).error().wrap(wrap).located(where));
  }
  return r;
}

// See LoadOptions::writable_properties. `doc` is the object the properties were decoded from:
// only its members' names are read, their values having moved into `properties`.
Result<void> check_writable(const Json& doc, const std::vector<Property>& properties,
                            std::string_view owner, const Location& where) {
  const Json* entries = json::find_member(doc, "properties");
  for (std::size_t i = 0; i < properties.size(); ++i) {
    std::string problem;
    if (properties[i].value.is_discarded()) {
      problem = "has no value; it would be written as null";
    } else if (auto member = dropped_property_member(entries->at(i)); !member.empty()) {
      problem = fmt::format("has a member {} besides type and value; it would be dropped",
                            util::go_quote(member));
    } else {
      continue;
    }
    return util::fail(Errc::invalid,
                      fmt::format("{}: property at index {} of type {} {}", owner, i,
                                  util::go_quote(properties[i].type), problem),
                      where);
  }
  return {};
}

std::string owner_of(const Package& p) { return fmt::format("package {}", util::go_quote(p.name)); }
std::string owner_of(const Channel& c) {
  return fmt::format("package {}, channel {}", util::go_quote(c.package), util::go_quote(c.name));
}
std::string owner_of(const Bundle& b) {
  return fmt::format("package {}, bundle {}", util::go_quote(b.package), util::go_quote(b.name));
}

// See LoadOptions::release_manifests. The shape is the one the model checks (B4), so a value
// emptied here would have passed there.
void release_checked_csv_metadata(Bundle& b) {
  for (auto& p : b.properties) {
    if (p.type == k_prop_csv_metadata && !property::check_value(p.type, p.value)) {
      Json(Json::value_t::object).swap(p.value);
    }
  }
}

Result<void> add_document(Json&& doc, bool has_integers, Location where, DeclarativeConfig& cfg,
                          const LoadOptions& options) {
  const bool writable_properties = options.writable_properties;
  auto env = read_envelope(doc);
  if (!env) {
    return std::unexpected(std::move(env).error().located(where));
  }
  if (has_integers) {
    json::normalize_numbers(doc);
  }
  const std::string& schema = env->schema;
  if (schema == k_schema_package) {
    auto p = OPM_TRY(located(decode_package(doc), "parse package", where));
    if (writable_properties) {
      OPM_TRY(check_writable(doc, p.properties, owner_of(p), where));
    }
    p.where = std::move(where);
    cfg.packages.push_back(std::move(p));
  } else if (schema == k_schema_channel) {
    auto c = OPM_TRY(located(decode_channel(doc), "parse channel", where));
    if (writable_properties) {
      OPM_TRY(check_writable(doc, c.properties, owner_of(c), where));
    }
    c.where = std::move(where);
    cfg.channels.push_back(std::move(c));
  } else if (schema == k_schema_bundle) {
    auto b = OPM_TRY(located(decode_bundle(doc), "parse bundle", where));
    auto objects =
        read_bundle_objects(b, options.keep_objects,
                            options.release_manifests ? ObjectData::release : ObjectData::keep);
    if (!objects) {
      return std::unexpected(std::move(objects).error().wrap("read bundle objects").located(where));
    }
    if (options.release_manifests) {
      release_checked_csv_metadata(b);
    }
    if (writable_properties) {
      OPM_TRY(check_writable(doc, b.properties, owner_of(b), where));
    }
    b.where = std::move(where);
    cfg.bundles.push_back(std::move(b));
  } else if (schema == k_schema_deprecations) {
    auto d = OPM_TRY(located(decode_deprecation(doc), "parse deprecation", where));
    d.where = std::move(where);
    cfg.deprecations.push_back(std::move(d));
  } else if (schema.empty()) {
    return util::fail(Errc::invalid,
                      fmt::format("object '{}\n' is missing root schema field", json::to_text(doc)),
                      std::move(where));
  } else {
    cfg.others.push_back(Meta{schema, std::move(env->package), std::move(env->name), std::move(doc),
                              std::move(where)});
  }
  return {};
}

// ---- one file ----------------------------------------------------------------------------

struct FileResult {
  DeclarativeConfig cfg;
  std::optional<Error> error;
};

// One decoded document of `file` added to `cfg`.
Result<void> add_decoded(Document&& doc, std::string_view file, DeclarativeConfig& cfg,
                         const LoadOptions& options) {
  return add_document(std::move(doc.value), doc.has_integers,
                      Location{std::string(file), doc.line, 0}, cfg, options);
}

Result<void> add_all(std::vector<Document>&& docs, std::string_view file, DeclarativeConfig& cfg,
                     const LoadOptions& options) {
  for (auto& doc : docs) {
    OPM_TRY(add_decoded(std::move(doc), file, cfg, options));
  }
  return {};
}

// Each loading thread reads its files into one buffer, whose pages are then faulted in once
// instead of once a file (LoadOptions::read_into). load_dir gives the calling thread's back
// when it is done.
thread_local util::PageBuffer t_file_pages;
thread_local std::string t_file_text;

Result<std::string_view> read_catalog_file(const std::filesystem::path& path,
                                           const LoadOptions& options) {
  if (options.read_into == ReadInto::heap) {
    OPM_TRY(util::read_file_into(path, t_file_text));
    return std::string_view(t_file_text);
  }
  return util::read_file_into(path, t_file_pages);
}

void load_file(const std::string& root, const std::string& rel, const std::string& display,
               const LoadOptions& options, FileResult& out) {
  auto text = read_catalog_file(go_path(root, rel), options);
  if (!text) {
    out.error = std::move(text).error();
    return;
  }
  // Each document is added as soon as it is read, as upstream handles them: a problem in one
  // is reported before a decoding error further down, and the file's documents are never all
  // held decoded at once.
  const DocumentSink add = [&](Document&& doc) {
    auto added = add_decoded(std::move(doc), display, out.cfg, options);
    if (!added) {
      out.error = std::move(added).error();
    }
    return added.has_value();
  };
  if (auto decode_error = decode_stream_each(*text, display, add); decode_error) {
    out.error = std::move(decode_error);
  }
}

std::string display_path(const std::filesystem::path& root, std::string_view rel) {
  return (root / rel).lexically_normal().string();
}

} // namespace

Result<void> check_envelope(const Json& doc) {
  OPM_TRY(read_envelope(doc));
  return {};
}

Result<void> add_documents(std::vector<Document>&& docs, std::string_view file,
                           DeclarativeConfig& cfg) {
  return add_all(std::move(docs), file, cfg, LoadOptions{});
}

namespace {

// The catalog files under the walk's root, in walk order, without those .indexignore files
// exclude (when `ignore` says so).
Result<std::vector<std::string>> catalog_files(Walk& walk, UseIgnoreFiles ignore) {
  OPM_TRY(walk_dir(walk, ""));
  IgnoreMatcher matcher;
  if (ignore == UseIgnoreFiles::yes) {
    for (const auto& rel : walk.ignore) {
      auto content = OPM_TRY(util::read_file(go_path(walk.root, rel)));
      auto slash = rel.rfind('/');
      matcher.add_file(slash == std::string::npos ? std::string_view{}
                                                  : std::string_view(rel).substr(0, slash),
                       content);
    }
  }
  std::vector<std::string> files;
  files.reserve(walk.files.size());
  for (auto& rel : walk.files) {
    if (matcher.empty() || !matcher.ignored(rel)) {
      files.push_back(std::move(rel));
    }
  }
  return files;
}

} // namespace

Result<void> walk_blobs(const std::filesystem::path& root, const BlobVisitor& visit) {
  Walk walk;
  walk.root = root.string();
  for (const auto& rel : OPM_TRY(catalog_files(walk, UseIgnoreFiles::yes))) {
    const std::string display = display_path(root, rel);
    auto text = OPM_TRY(util::read_file(go_path(walk.root, rel)));
    // As load_dir reads them: each document as soon as it is decoded.
    std::optional<Error> failed;
    std::string blob;
    const DocumentSink visit_blob = [&](Document&& doc) {
      if (auto envelope = read_envelope(doc.value); !envelope) {
        failed = std::move(envelope).error().located(Location{display, doc.line, 0});
        return false;
      }
      if (doc.has_integers) {
        json::normalize_numbers(doc.value);
      }
      blob = json::to_text(doc.value);
      blob += '\n';
      if (auto visited = visit(blob); !visited) {
        failed = std::move(visited).error();
        return false;
      }
      return true;
    };
    if (auto decode_error = decode_stream_each(text, display, visit_blob); decode_error) {
      failed = std::move(decode_error);
    }
    if (failed) {
      return std::unexpected(std::move(*failed));
    }
  }
  return {};
}

Result<DeclarativeConfig> load_dir(const std::filesystem::path& root, const LoadOptions& options) {
  Walk walk;
  walk.root = root.string();
  auto files = OPM_TRY(catalog_files(walk, options.ignore));

  std::vector<FileResult> results(files.size());
  unsigned threads = options.threads != 0 ? options.threads : std::thread::hardware_concurrency();
  util::run_indexed_until_failure(files.size(), threads, [&](std::size_t i) {
    load_file(walk.root, files[i], display_path(root, files[i]), options, results[i]);
    return !results[i].error;
  });
  t_file_pages.release();
  std::string().swap(t_file_text);

  DeclarativeConfig cfg;
  for (auto& r : results) {
    if (r.error) {
      return std::unexpected(std::move(*r.error));
    }
    cfg.merge(std::move(r.cfg));
  }
  return cfg;
}

} // namespace opm::catalog
