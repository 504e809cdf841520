#pragma once

#include "sqlite/typed_value.hpp"
#include "util/error.hpp"

#include <set>
#include <string>
#include <string_view>
#include <vector>

// Inserting one bundle's rows into an index database, as upstream v1.26.5's sqlLoader
// does (pkg/sqlite/load.go).
namespace opm::sqlite {

class Connection;

struct ApiRow {
  std::string group, version, kind, plural;
  auto operator<=>(const ApiRow&) const = default;
};

// One bundle as the operatorbundle row and its satellite rows store it.
struct NewBundle {
  std::string name;
  std::string image; // bundlepath; "" for none
  std::string version;
  std::string skip_range;
  std::string replaces;
  std::vector<std::string> skips;
  std::string substitutes_for;
  std::string csv_json;                 // the CSV object's Go JSON text
  std::vector<std::string> object_json; // every manifest object, in file order
  std::set<std::string> images;         // related images, the bundle image included
  std::vector<TypedValue> dependencies; // the dependencies file, in order
  std::set<TypedValue> properties;      // values already in stored form
  std::set<ApiRow> provided;
  std::set<ApiRow> required;
};

// Insert the bundle's rows (operatorbundle, related_image, dependencies with one olm.gvk row
// per required API, properties, api, api_provider, api_requirer) in one transaction. Errors
// keep upstream's texts, e.g. `failed to add bundle "x": UNIQUE constraint failed:
// operatorbundle.name`, `SubstitutesFor is an alpha-only feature. ...`.
Result<void> add_bundle(Connection& db, const NewBundle& bundle, bool enable_alpha = false);

// Go's json.Compact with HTML escaping, as json.Marshal stores a json.RawMessage:
// whitespace dropped, <, >, &, U+2028 and U+2029 escaped.
std::string marshal_raw(std::string_view json_text);

} // namespace opm::sqlite
