#include "list/images.hpp"
#include "support/catalog_builders.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace opm;
using namespace opm::test;

TEST_SUITE("alpha list images") {
  TEST_CASE("every image once, sorted, with the bundles that use it") {
    catalog::DeclarativeConfig cfg;
    cfg.bundles.push_back(bundle("b", "b.v1", 1, "1.0.0", "quay.io/x/b-bundle:v1"));
    cfg.bundles.back().related_images = {{"op", "quay.io/x/shared:v1"}, {"", ""}};
    cfg.bundles.push_back(bundle("a", "a.v1", 2, "1.0.0", "quay.io/x/a-bundle:v1"));
    cfg.bundles.back().related_images = {{"op", "quay.io/x/shared:v1"}};
    CHECK(list::list_images(cfg, false) ==
          "quay.io/x/a-bundle:v1\nquay.io/x/b-bundle:v1\nquay.io/x/shared:v1\n");
    std::string json = list::list_images(cfg, true);
    CHECK(json.find("\"image\": \"quay.io/x/shared:v1\"") != std::string::npos);
    CHECK(json.find("\"bundles\": [\n            {\n                \"name\": \"a.v1\",\n"
                    "                \"package\": \"a\"\n            },\n            {\n"
                    "                \"name\": \"b.v1\",") != std::string::npos);
  }
}
