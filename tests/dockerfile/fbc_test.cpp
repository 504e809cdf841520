#include "dockerfile/fbc.hpp"

#include <doctest/doctest.h>

using namespace opm::dockerfile;

TEST_SUITE("dockerfile") {
  TEST_CASE("writes the builder and base stages for a regular base image") {
    CatalogImage image{"base:1", "builder:2", "cat", {}};
    CHECK(catalog_dockerfile(image) ==
          "# The builder image is expected to contain\n"
          "# /bin/opm (with serve subcommand)\n"
          "FROM builder:2 as builder\n"
          "\n"
          "# Copy FBC root into image at /configs and pre-populate serve cache\n"
          "ADD cat /configs\n"
          "RUN [\"/bin/opm\", \"serve\", \"/configs\", \"--cache-dir=/tmp/cache\", "
          "\"--cache-only\"]\n"
          "\n"
          "FROM base:1\n"
          "# The base image is expected to contain\n"
          "# /bin/opm (with serve subcommand) and /bin/grpc_health_probe\n"
          "\n"
          "# Configure the entrypoint and command\n"
          "ENTRYPOINT [\"/bin/opm\"]\n"
          "CMD [\"serve\", \"/configs\", \"--cache-dir=/tmp/cache\"]\n"
          "\n"
          "COPY --from=builder /configs /configs\n"
          "COPY --from=builder /tmp/cache /tmp/cache\n"
          "\n"
          "# Set FBC-specific label for the location of the FBC root directory\n"
          "# in the image\n"
          "LABEL operators.operatorframework.io.index.configs.v1=/configs\n");
  }

  TEST_CASE("a scratch base image gets the extractContent note instead of an entrypoint") {
    CatalogImage image{"scratch", "b", "cat", {}};
    std::string text = catalog_dockerfile(image);
    CHECK(text.find("FROM scratch\n"
                    "# OLMv0 CatalogSources that use binary-less images must set:\n"
                    "# spec:\n"
                    "#   grpcPodConfig:\n"
                    "#     extractContent:\n"
                    "#       catalogDir: /configs\n"
                    "#       cacheDir: /tmp/cache\n"
                    "\n"
                    "COPY --from=builder /configs /configs\n") != std::string::npos);
    CHECK(text.find("ENTRYPOINT") == std::string::npos);
  }

  TEST_CASE("extra labels follow sorted by key, unescaped") {
    CatalogImage image{"i", "b", "cat", {{"z", "q"}, {"a", "1"}, {"c", "x=y"}}};
    std::string text = catalog_dockerfile(image);
    CHECK(text.ends_with("LABEL operators.operatorframework.io.index.configs.v1=/configs\n"
                         "\n"
                         "# Set other custom labels\n"
                         "LABEL \"a\"=\"1\"\n"
                         "LABEL \"c\"=\"x=y\"\n"
                         "LABEL \"z\"=\"q\"\n"));
  }

  TEST_CASE("labels split at the first equals sign and the last duplicate wins") {
    auto labels = parse_labels({"b=3", "a=1", "c=x=y", "a=2", "e="});
    REQUIRE(labels);
    CHECK(*labels ==
          std::map<std::string, std::string>{{"a", "2"}, {"b", "3"}, {"c", "x=y"}, {"e", ""}});
    CHECK(parse_labels({"ok=1", "novalue"}).error().message() == "invalid label \"novalue\"");
  }

  TEST_CASE("an empty base image or directory name is refused") {
    CHECK(validate({"", "b", "cat", {}}).error().message() == "base image is unset");
    CHECK(validate({"i", "b", "", {}}).error().message() == "index directory is unset");
    CHECK(validate({"i", "", "cat", {}}).has_value());
  }
}
