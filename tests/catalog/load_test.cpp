#include "catalog/load.hpp"
#include "support/temp_dir.hpp"
#include "util/base64.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>

using namespace opm::catalog;
using opm::Json;
using opm::test::TempDir;

namespace {
std::string package_json(std::string_view name) {
  return "{\"schema\":\"olm.package\",\"name\":\"" + std::string(name) + "\"}";
}
const opm::catalog::LoadOptions k_release{.keep_objects = opm::catalog::KeepObjects::csv_only,
                                          .release_manifests = true};

std::string object_property(std::string_view object_text) {
  return R"({"type":"olm.bundle.object","value":{"data":")" +
         opm::util::base64_encode(object_text) + "\"}}";
}
} // namespace

TEST_SUITE("load_dir") {
  TEST_CASE("walks files and directories interleaved in byte-wise name order") {
    TempDir dir;
    dir.write("b.json", package_json("b"));
    dir.write("a/z.json", package_json("a-z"));
    dir.write("B.json", package_json("B"));
    dir.write("_x/y.json", package_json("_x-y"));
    auto cfg = load_dir(dir.path());
    REQUIRE(cfg);
    std::vector<std::string> names;
    for (const auto& p : cfg->packages) {
      names.push_back(p.name);
    }
    CHECK(names == std::vector<std::string>{"B", "_x-y", "a-z", "b"});
  }

  TEST_CASE("the same order comes out with one thread or many") {
    TempDir dir;
    for (int i = 0; i < 40; ++i) {
      dir.write("p" + std::to_string(i / 10) + "/f" + std::to_string(i) + ".json",
                package_json("pkg" + std::to_string(i)));
    }
    auto one = load_dir(dir.path(), {.threads = 1});
    auto many = load_dir(dir.path(), {.threads = 4});
    REQUIRE(one);
    REQUIRE(many);
    REQUIRE(one->packages.size() == 40);
    for (std::size_t i = 0; i < 40; ++i) {
      CHECK(one->packages[i].name == many->packages[i].name);
    }
  }

  TEST_CASE("skips files matched by .indexignore files, which are never loaded") {
    TempDir dir;
    dir.write(".indexignore", "*.md\nsub/skip.json\n");
    dir.write("README.md", "# not a catalog\n");
    dir.write("sub/skip.json", "not json at all");
    dir.write("sub/keep.json", package_json("keep"));
    auto cfg = load_dir(dir.path());
    REQUIRE(cfg);
    REQUIRE(cfg->packages.size() == 1);
    CHECK(cfg->packages[0].name == "keep");
  }

  TEST_CASE("every file is read whatever its name") {
    TempDir dir;
    dir.write("LICENSE", package_json("from-license"));
    auto cfg = load_dir(dir.path());
    REQUIRE(cfg);
    CHECK(cfg->packages.at(0).name == "from-license");
  }

  TEST_CASE("an empty file contributes nothing") {
    TempDir dir;
    dir.write("empty.yaml", "");
    auto cfg = load_dir(dir.path());
    REQUIRE(cfg);
    CHECK(cfg->packages.empty());
  }

  TEST_CASE("objects remember their file and line") {
    TempDir dir;
    dir.write("pkg/index.json", package_json("a"));
    auto cfg = load_dir(dir.path());
    REQUIRE(cfg);
    CHECK(cfg->packages.at(0).where.file == (dir.path() / "pkg/index.json").string());
    CHECK(cfg->packages.at(0).where.line == 1);
  }

  TEST_CASE("unknown schemas are kept as others with their envelope") {
    TempDir dir;
    dir.write("x.json", R"({"schema":"example.note","package":"p","Name":"n","z":1})");
    auto cfg = load_dir(dir.path());
    REQUIRE(cfg);
    REQUIRE(cfg->others.size() == 1);
    CHECK(cfg->others[0].schema == "example.note");
    CHECK(cfg->others[0].package == "p");
    CHECK(cfg->others[0].name == "n");
    CHECK(cfg->others[0].blob["z"].is_number_float());
  }

  TEST_CASE("keys differing only by case are rejected, naming both") {
    TempDir dir;
    dir.write("x.json", R"({"schema":"olm.package","name":"a","Name":"b"})");
    auto cfg = load_dir(dir.path());
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() == "duplicate keys for key \"name\": [Name name]");
    CHECK(cfg.error().where()->line == 1);
  }

  TEST_CASE("schema, package and name must be strings, in Go's words") {
    TempDir dir;
    dir.write("x.json", R"({"schema":1})");
    auto cfg = load_dir(dir.path());
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() ==
          "expected value for key \"schema\" to be a string, got %!t(float64=1): 1");
    TempDir arr;
    arr.write("x.json", R"({"schema":"s","package":["a"]})");
    CHECK(load_dir(arr.path()).error().message() ==
          "expected value for key \"package\" to be a string, got [%!t(string=a)]: [a]");
  }

  TEST_CASE("a document without a schema is an error that shows the document") {
    TempDir dir;
    dir.write("x.json", R"({"name":"a"})");
    auto cfg = load_dir(dir.path());
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() == "object '{\"name\":\"a\"}\n' is missing root schema field");
  }

  TEST_CASE("typed decoding errors are wrapped with the schema") {
    TempDir dir;
    dir.write("x.json", R"({"schema":"olm.channel","entries":[{"name":true}]})");
    auto cfg = load_dir(dir.path());
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() == "parse channel: json: cannot unmarshal bool into Go struct "
                                   "field ChannelEntry.entries.name of type string");
  }

  TEST_CASE("bundle objects are decoded and the first CSV is found") {
    TempDir dir;
    std::string csv =
        R"({"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion","metadata":{"name":"a.v1"}})";
    std::string crd = R"({"kind":"CustomResourceDefinition","spec":{"kind":"x"}})";
    dir.write("b.json", R"({"schema":"olm.bundle","package":"a","name":"a.v1","properties":[)" +
                            object_property(crd) + "," + object_property(csv) + "]}");
    auto cfg = load_dir(dir.path());
    REQUIRE(cfg);
    const auto& b = cfg->bundles.at(0);
    REQUIRE(b.objects.size() == 2);
    CHECK(b.objects[0] == crd);
    CHECK(b.csv_json() == csv);
  }

  TEST_CASE("a CSV whose kind is spelled with escapes is found, and HTML escapes make no CSV") {
    TempDir dir;
    // Cluster\u0053erviceVersion: the word itself is nowhere in the text.
    std::string escaped = R"({"kind":"Cluster\u0053erviceVersion","metadata":{"name":"a.v1"}})";
    std::string html = R"({"kind":"Service","spec":{"d":"\u003cb\u003e \u0026"}})";
    std::string wrong_case = R"({"kind":"clusterServiceVersion"})";
    dir.write("b.json", R"({"schema":"olm.bundle","package":"a","name":"a.v1","properties":[)" +
                            object_property(html) + "," + object_property(wrong_case) + "," +
                            object_property(escaped) + "]}");
    dir.write("c.json", R"({"schema":"olm.bundle","package":"a","name":"a.v0","properties":[)" +
                            object_property(html) + "]}");
    for (KeepObjects keep : {KeepObjects::all, KeepObjects::csv_only}) {
      auto cfg = load_dir(dir.path(), {.keep_objects = keep});
      REQUIRE(cfg);
      CHECK(cfg->bundles.at(0).csv_json() == escaped);
      CHECK(cfg->bundles.at(1).csv_json().empty());
    }
  }

  TEST_CASE("keeping only the CSV keeps the first CSV object and counts the others") {
    TempDir dir;
    std::string csv = R"({"kind":"ClusterServiceVersion","metadata":{"name":"a.v1"}})";
    std::string second_csv = R"({"kind":"ClusterServiceVersion","metadata":{"name":"a.v2"}})";
    std::string crd = R"({"kind":"CustomResourceDefinition","spec":{"kind":"x"}})";
    dir.write("b.json", R"({"schema":"olm.bundle","package":"a","name":"a.v1","properties":[)" +
                            object_property(crd) + "," + object_property(csv) + "," +
                            object_property(second_csv) + "]}");
    dir.write("c.json", R"({"schema":"olm.bundle","package":"a","name":"a.v0","properties":[)" +
                            object_property(crd) + "]}");
    auto cfg = load_dir(dir.path(), {.keep_objects = KeepObjects::csv_only});
    REQUIRE(cfg);
    const auto& b = cfg->bundles.at(0);
    CHECK(b.objects == std::vector<std::string>{csv});
    CHECK(b.csv_json() == csv);
    CHECK(b.dropped_objects == 2);
    CHECK(b.has_objects());
    const auto& crd_only = cfg->bundles.at(1);
    CHECK(crd_only.objects.empty());
    CHECK(crd_only.csv_json().empty());
    CHECK(crd_only.has_objects());
  }

  TEST_CASE("keeping only the CSV still checks every object") {
    TempDir dir;
    dir.write("b.json", R"({"schema":"olm.bundle","package":"a","name":"b","properties":[)" +
                            object_property(R"({"kind":"Service"})") +
                            R"(,{"type":"olm.bundle.object","value":{"data":"!!"}}]})");
    auto cfg = load_dir(dir.path(), {.keep_objects = KeepObjects::csv_only});
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() ==
          "read bundle objects: package \"a\", bundle \"b\": parse property at index 1 as bundle "
          "object: illegal base64 data at input byte 0");
  }

  TEST_CASE("releasing manifests keeps the CSV and empties every object's data, case-folded keys "
            "too") {
    TempDir dir;
    std::string csv = R"({"kind":"ClusterServiceVersion","metadata":{"name":"a.v1"}})";
    std::string crd = R"({"kind":"CustomResourceDefinition","spec":{"kind":"x"}})";
    dir.write("b.json", R"({"schema":"olm.bundle","package":"a","name":"a.v1","properties":[)" +
                            object_property(crd) + "," + object_property(csv) +
                            R"(,{"type":"olm.bundle.object","value":{"Data":")" +
                            opm::util::base64_encode(crd) +
                            R"("}},{"type":"olm.package","value":)" +
                            R"({"packageName":"a","version":"1.0.0"}}]})");
    auto cfg = load_dir(dir.path(), k_release);
    REQUIRE(cfg);
    const auto& b = cfg->bundles.at(0);
    CHECK(b.csv_json() == csv);
    CHECK(b.dropped_objects == 2);
    REQUIRE(b.properties.size() == 4);
    CHECK(b.properties[0].value == Json{{"data", ""}});
    CHECK(b.properties[1].value == Json{{"data", ""}});
    CHECK(b.properties[2].value == Json{{"Data", ""}});
    CHECK(b.properties[3].value == Json{{"packageName", "a"}, {"version", "1.0.0"}});
  }

  TEST_CASE("releasing manifests still checks every object first") {
    TempDir dir;
    dir.write("b.json", R"({"schema":"olm.bundle","package":"a","name":"b","properties":[)" +
                            object_property(R"({"kind":"Service"})") +
                            R"(,{"type":"olm.bundle.object","value":{"data":"!!"}}]})");
    auto cfg = load_dir(dir.path(), k_release);
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() ==
          "read bundle objects: package \"a\", bundle \"b\": parse property at index 1 as bundle "
          "object: illegal base64 data at input byte 0");
  }

  TEST_CASE("releasing manifests empties a CSV metadata value whose shape checks, and only then") {
    TempDir dir;
    dir.write("b.json",
              R"({"schema":"olm.bundle","package":"a","name":"a.v1","properties":[)"
              R"({"type":"olm.csv.metadata","value":{"displayName":"A","annotations":{"x":"y"}}}]})"
              "\n"
              R"({"schema":"olm.bundle","package":"a","name":"a.v2","properties":[)"
              R"({"type":"olm.csv.metadata","value":{"annotations":{"x":1}}}]})");
    auto cfg = load_dir(dir.path(), k_release);
    REQUIRE(cfg);
    CHECK(cfg->bundles.at(0).properties.at(0).value == Json::object());
    CHECK(cfg->bundles.at(1).properties.at(0).value == Json{{"annotations", {{"x", 1.0}}}});
    auto kept = load_dir(dir.path(), {.keep_objects = KeepObjects::csv_only});
    REQUIRE(kept);
    CHECK(kept->bundles.at(0).properties.at(0).value ==
          Json{{"annotations", {{"x", "y"}}}, {"displayName", "A"}});
  }

  TEST_CASE("bad bundle object data names the package, bundle and property index") {
    TempDir dir;
    dir.write(
        "b.json",
        R"({"schema":"olm.bundle","package":"a","name":"b","properties":[{"type":"x"},{"type":"olm.bundle.object","value":{"data":"!!"}}]})");
    auto cfg = load_dir(dir.path());
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() ==
          "read bundle objects: package \"a\", bundle \"b\": parse property at index 1 as bundle "
          "object: illegal base64 data at input byte 0");
  }

  TEST_CASE("a bundle object value that is not an object is a Go type error") {
    TempDir dir;
    dir.write(
        "b.json",
        R"({"schema":"olm.bundle","package":"a","name":"b","properties":[{"type":"olm.bundle.object","value":"x"}]})");
    auto cfg = load_dir(dir.path());
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() ==
          "read bundle objects: package \"a\", bundle \"b\": parse property at index 0 as bundle "
          "object: json: cannot unmarshal string into Go value of type property.BundleObject");
  }

  TEST_CASE("the first error in walk order is reported") {
    TempDir dir;
    dir.write("a.json", R"({"name":"first"})");
    dir.write("b.json", R"({"name":"second"})");
    auto cfg = load_dir(dir.path(), {.threads = 2});
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().where()->file == (dir.path() / "a.json").string());
  }

  TEST_CASE("a symlink to a directory is read like a file and fails as Go does") {
    TempDir dir;
    dir.write("real/a.json", package_json("a"));
    std::filesystem::create_directory_symlink(dir.path() / "real", dir.path() / "link");
    auto cfg = load_dir(dir.path());
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() == "read " + dir.path().string() + "/link: is a directory");
  }

  TEST_CASE("a dangling symlink fails to open") {
    TempDir dir;
    std::filesystem::create_symlink(dir.path() / "missing", dir.path() / "dangling");
    auto cfg = load_dir(dir.path());
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() ==
          "open " + dir.path().string() + "/dangling: no such file or directory");
  }

  TEST_CASE("a symlink loop is an error, not a hang") {
    TempDir dir;
    std::filesystem::create_symlink(dir.path() / "loop", dir.path() / "loop");
    auto cfg = load_dir(dir.path());
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() ==
          "open " + dir.path().string() + "/loop: too many levels of symbolic links");
  }

  TEST_CASE("an unreadable file fails with permission denied") {
    if (::geteuid() == 0) {
      return; // root reads everything
    }
    TempDir dir;
    auto f = dir.write("a.json", package_json("a"));
    std::filesystem::permissions(f, std::filesystem::perms::none);
    auto cfg = load_dir(dir.path());
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() == "open " + f.string() + ": permission denied");
  }

  TEST_CASE("bundle object data starting with a brace is taken as JSON unchecked") {
    TempDir dir;
    dir.write("b.json", R"({"schema":"olm.bundle","package":"a","name":"b","properties":[)" +
                            object_property("{not json") + "]}");
    auto cfg = load_dir(dir.path());
    REQUIRE(cfg);
    CHECK(cfg->bundles.at(0).objects.at(0) == "{not json");
    CHECK(cfg->bundles.at(0).csv_json().empty());
  }

  TEST_CASE("YAML bundle object data is converted to JSON") {
    TempDir dir;
    dir.write("b.json",
              R"({"schema":"olm.bundle","package":"a","name":"b","properties":[)" +
                  object_property("kind: ClusterServiceVersion\nspec:\n  version: 1.0.0\n") + "]}");
    auto cfg = load_dir(dir.path());
    REQUIRE(cfg);
    CHECK(cfg->bundles.at(0).csv_json() ==
          R"({"kind":"ClusterServiceVersion","spec":{"version":"1.0.0"}})");
  }

  TEST_CASE("an error in an earlier document comes before a syntax error further down") {
    TempDir dir;
    dir.write("x.yaml", "name: no-schema\n---\nschema: olm.package\nname: [\n");
    auto cfg = load_dir(dir.path());
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() ==
          "object '{\"name\":\"no-schema\"}\n' is missing root schema field");
    CHECK(cfg.error().where()->line == 1);
  }
}

TEST_SUITE("add_documents") {
  TEST_CASE("a document that is not an object fails as Go's decoding into a map does") {
    std::vector<Document> docs;
    docs.push_back({Json::array({1}), 3});
    DeclarativeConfig cfg;
    auto added = add_documents(std::move(docs), "f.yaml", cfg);
    REQUIRE_FALSE(added);
    CHECK(added.error().message() == "json: cannot unmarshal array into Go value of type "
                                     "map[string]interface {} at offset 1 (indicated by <==)\n"
                                     "[ <== \n    1\n]");
    CHECK(added.error().where()->line == 3);
  }
}
