#pragma once

#include "catalog/declcfg.hpp"
#include "catalog/decode.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <functional>
#include <string_view>

namespace opm::catalog {

enum class UseIgnoreFiles { yes, no };

enum class ReadInto { own_pages, heap };

struct LoadOptions {
  UseIgnoreFiles ignore = UseIgnoreFiles::yes;
  unsigned threads = 0; // 0: one per CPU, when there is enough to share
  // Refuse a package, channel or bundle property entry that writing the catalog back would
  // change (`render`): one with no value (written as null) or with a member besides type and
  // value (dropped). `package "<p>", bundle "<b>": property at index <i> of type "<t>" has no
  // value; it would be written as null` / `... has a member "<m>" besides type and value; it
  // would be dropped`, at the object's location.
  bool writable_properties = false;
  // KeepObjects::csv_only where nothing reads a bundle's objects but its CSV (validate,
  // render): the catalog is then held in about half the memory.
  KeepObjects keep_objects = KeepObjects::all;
  // Release each bundle's manifests once they are checked, where nothing writes the properties
  // or reads them again (validate): the base64 data of each olm.bundle.object once its object
  // is read, and each olm.csv.metadata value whose shape checks (emptied to {}; one that does
  // not check is kept for the model's error). A catalog is mostly its manifests, and their
  // memory then serves the documents after instead of new pages.
  bool release_manifests = false;
  // Where each file is read: into pages of its own, advised as huge pages and kept from one
  // file to the next, which the first file faults in a few at a time (ReadInto::own_pages); or
  // into the heap, for a caller whose heap hands a file's pages on to the documents after it
  // and to the next directory's load (ReadInto::heap: `serve`, on its scratch heap).
  ReadInto read_into = ReadInto::own_pages;
};

// Load every file under `root` as upstream's declcfg.LoadFS does: walk in byte-wise name order,
// skip what .indexignore files exclude, decode each file as a JSON or YAML stream, and
// turn each document into a typed object or an "other". Fails on the first problem in
// walk order, with upstream's text and the file:line of the offending document.
// Paths in locations are `root` joined with the path relative to it.
Result<DeclarativeConfig> load_dir(const std::filesystem::path& root,
                                   const LoadOptions& options = {});

// Every document's blob as upstream's declcfg.WalkMetasFS gives it (Meta.Blob): walk order, one
// file at a time, each document decoded and encoded again (keys sorted, numbers as float64, no
// HTML escaping) with a newline after it. Fails on the first file or document that does not
// load, as load_dir would.
using BlobVisitor = std::function<Result<void>(std::string_view blob)>;
Result<void> walk_blobs(const std::filesystem::path& root, const BlobVisitor& visit);

// Turn the documents of one file into objects, appending them to `cfg` (envelope,
// case-insensitive keys, typed decoding, bundle objects). `file` names the file in locations.
// A document that is not an object fails with Go's error for decoding it into a map.
Result<void> add_documents(std::vector<Document>&& docs, std::string_view file,
                           DeclarativeConfig& cfg);

// Upstream's Meta.UnmarshalJSON checks of one document, without its location: it must decode
// into a map (null does), its keys must not differ only by case (`duplicate keys for key
// "name": [Name name]`), and schema, package and name must be strings (`expected value for key
// "name" to be a string, got true: true`).
Result<void> check_envelope(const Json& doc);

} // namespace opm::catalog
