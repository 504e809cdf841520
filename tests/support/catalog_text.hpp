#pragma once

#include "catalog/decode.hpp"
#include "catalog/load.hpp"

#include <doctest/doctest.h>

#include <string_view>

namespace opm::test {

// A catalog from YAML text, as if read from a file named `name`.
inline catalog::DeclarativeConfig catalog_from_yaml(std::string_view text,
                                                    std::string_view name = "new.yaml") {
  auto docs = catalog::decode_stream(text, name);
  REQUIRE(docs.has_value());
  catalog::DeclarativeConfig cfg;
  REQUIRE(catalog::add_documents(std::move(*docs), name, cfg).has_value());
  return cfg;
}

} // namespace opm::test
