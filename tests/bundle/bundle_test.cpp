#include "bundle/bundle.hpp"
#include "catalog/write.hpp"
#include "support/temp_dir.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>

#include <sstream>

using namespace opm;
using opm::test::TempDir;

namespace {

const std::filesystem::path k_data = OPM_TEST_DATA_DIR;

constexpr std::string_view k_annotations = R"(annotations:
  operators.operatorframework.io.bundle.package.v1: demo
  operators.operatorframework.io.bundle.channels.v1: alpha
)";

std::string csv(std::string_view name, std::string_view spec) {
  return "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n"
         "  name: " +
         std::string(name) + "\nspec:\n" + std::string(spec);
}

// A bundle directory with a CSV and annotations, plus any other files.
void write_bundle(const TempDir& dir, std::string_view csv_yaml,
                  std::string_view annotations = k_annotations) {
  dir.write("manifests/demo.clusterserviceversion.yaml", csv_yaml);
  dir.write("metadata/annotations.yaml", annotations);
}

std::string load_error(const std::filesystem::path& dir) {
  auto b = bundle::load_dir(dir, "");
  REQUIRE_FALSE(b);
  return b.error().message();
}

std::vector<std::string> property_types(const catalog::Bundle& b) {
  std::vector<std::string> types;
  for (const auto& p : b.properties) {
    types.push_back(p.type);
  }
  return types;
}

const catalog::Property& only(const catalog::Bundle& b, std::string_view type) {
  const catalog::Property* found = nullptr;
  for (const auto& p : b.properties) {
    if (p.type == type) {
      REQUIRE(found == nullptr);
      found = &p;
    }
  }
  REQUIRE(found != nullptr);
  return *found;
}

std::string rendered_json(const catalog::Bundle& b) {
  catalog::DeclarativeConfig cfg;
  cfg.bundles.push_back(b);
  std::stable_partition(cfg.bundles[0].properties.begin(), cfg.bundles[0].properties.end(),
                        [](const catalog::Property& p) { return p.type != "olm.bundle.object"; });
  std::stable_sort(cfg.bundles[0].related_images.begin(), cfg.bundles[0].related_images.end(),
                   [](const auto& x, const auto& y) { return x.image < y.image; });
  std::ostringstream out;
  catalog::write(cfg, catalog::Format::json, out);
  return out.str();
}

} // namespace

TEST_SUITE("bundle directory") {
  TEST_CASE("renders the full example exactly like the golden file") {
    auto b = bundle::load_dir(k_data / "bundles/full", "");
    REQUIRE(b);
    auto golden = util::read_file(k_data / "bundles/full.json");
    REQUIRE(golden);
    CHECK(rendered_json(*b) == *golden);
  }

  TEST_CASE("keeps the CSV name, annotations package and channels") {
    auto parsed = bundle::parse_dir(k_data / "bundles/full");
    REQUIRE(parsed);
    CHECK(parsed->name == "example-operator.v1.2.3");
    CHECK(parsed->package == "example-operator");
    CHECK(parsed->channels == std::vector<std::string>{"stable", "fast"});
    CHECK(parsed->default_channel == "stable");
    CHECK(bundle::csv_skip_range(parsed->csv) == ">=1.0.0 <1.2.3");
    CHECK(bundle::csv_replaces(parsed->csv) == "example-operator.v1.2.2");
    CHECK(bundle::csv_skips(parsed->csv) == std::vector<std::string>{"example-operator.v1.2.1"});
    // README.md, the hidden file and the sub-directory's file are not objects.
    CHECK(parsed->object_json.size() == 4);
    CHECK(parsed->object_json[parsed->csv_index].find(R"("kind":"ClusterServiceVersion")") !=
          std::string::npos);
  }

  TEST_CASE("encodes objects as compact sorted HTML-escaped JSON, numbers as Go prints them") {
    auto b = bundle::load_dir(k_data / "bundles/full", "");
    REQUIRE(b);
    REQUIRE(b->objects.size() == 4);
    // File-name order: the Service, the CSV, then the two CRDs.
    CHECK(b->objects[3].find(R"("maximum":1000,"minimum":0.5)") != std::string::npos);
    CHECK(b->objects[1].find(R"("description":"Runs the example \u0026 friends")") !=
          std::string::npos);
    CHECK(b->objects[0] ==
          R"({"apiVersion":"v1","kind":"Service","metadata":{"creationTimestamp":null,)"
          R"("name":"example-operator-metrics"},"spec":{"ports":[{"name":"metrics","port":8443,)"
          R"("targetPort":8443}],"selector":{"app":"example-operator"}},)"
          R"("status":{"loadBalancer":{}}})");
    CHECK(b->csv_json() == b->objects[1]);
  }

  TEST_CASE("adds the bundle image to the related images when it has one") {
    auto b = bundle::load_dir(k_data / "bundles/full", "quay.io/example/bundle:v1.2.3");
    REQUIRE(b);
    CHECK(b->image == "quay.io/example/bundle:v1.2.3");
    std::vector<std::string> images;
    for (const auto& ri : b->related_images) {
      images.push_back(ri.name + "=" + ri.image);
    }
    CHECK(images == std::vector<std::string>{
                        "operator=quay.io/example/operator@sha256:"
                        "2222222222222222222222222222222222222222222222222222222222222222",
                        "database=quay.io/example/db:v2", "database-again=quay.io/example/db:v2",
                        "=quay.io/example/bundle:v1.2.3",
                        "=", // the container without an image
                        "=quay.io/example/init@sha256:"
                        "1111111111111111111111111111111111111111111111111111111111111111",
                        "=quay.io/example/proxy:v1"});
  }

  TEST_CASE("writes a release after the version in olm.package") {
    auto b = bundle::load_dir(k_data / "bundles/release", "");
    REQUIRE(b);
    const auto& pkg = only(*b, "olm.package");
    CHECK(pkg.raw == R"({"packageName":"tiny","version":"0.1.0","release":"2"})");
    CHECK(pkg.value["release"] == "2");
  }

  TEST_CASE("reports an owned CRD missing from the bundle, listing what it found") {
    TempDir dir;
    write_bundle(dir, csv("demo.v1.0.0", R"(  version: 1.0.0
  customresourcedefinitions:
    owned:
    - name: widgets.example.com
      version: v1
      kind: Widget
)"));
    CHECK(load_error(dir.path()) ==
          "error checking provided apis in bundle demo.v1.0.0: couldn't find "
          "example.com/v1/Widget (widgets) in bundle. found: map[]");

    dir.write("manifests/other.crd.yaml", R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.b.com
spec:
  group: b.com
  names: {kind: Thing, plural: things}
  versions: [{name: v2}, {name: v1}]
)");
    CHECK(load_error(dir.path()) ==
          "error checking provided apis in bundle demo.v1.0.0: couldn't find "
          "example.com/v1/Widget (widgets) in bundle. found: map[b.com/v1/Thing (things):{} "
          "b.com/v2/Thing (things):{}]");
  }

  TEST_CASE("reports a CRD name that is not plural.group") {
    TempDir dir;
    write_bundle(dir, csv("demo.v1.0.0", R"(  customresourcedefinitions:
    owned:
    - name: widgets
      version: v1
      kind: Widget
)"));
    CHECK(load_error(dir.path()) == "error checking provided apis in bundle demo.v1.0.0: couldn't "
                                    "parse plural.group from crd name: widgets");
  }

  TEST_CASE("reports a CRD that does not decode as its version's type") {
    TempDir dir;
    write_bundle(dir, csv("demo.v1.0.0", "  version: 1.0.0\n"));
    dir.write("manifests/bad.crd.yaml", R"(apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: bad.example.com
spec:
  group: 7
)");
    CHECK(load_error(dir.path()) ==
          "error decoding v1beta1 CRD: json: cannot unmarshal number into Go struct field "
          "CustomResourceDefinitionSpec.spec.group of type string");
  }

  TEST_CASE("fails without a CSV, without objects, and without annotations") {
    TempDir no_csv;
    no_csv.write("manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\n");
    no_csv.write("metadata/annotations.yaml", k_annotations);
    CHECK(load_error(no_csv.path()) == "no csv in bundle");

    TempDir no_objects;
    no_objects.write("manifests/README.md", "Nothing to see here.\n");
    no_objects.write("manifests/no-kind.yaml", "apiVersion: v1\n");
    no_objects.write("metadata/annotations.yaml", k_annotations);
    CHECK(load_error(no_objects.path()) == "no bundle objects found");

    TempDir no_annotations;
    no_annotations.write("manifests/csv.yaml", csv("demo.v1.0.0", "  version: 1.0.0\n"));
    no_annotations.write("metadata/annotations.yaml", "annotations:\n  other: value\n");
    CHECK(load_error(no_annotations.path()) == "Could not find annotations file");
  }

  TEST_CASE("keeps only the first CSV by file name") {
    TempDir dir;
    write_bundle(dir, csv("demo.v1.0.0", "  version: 1.0.0\n"));
    dir.write("manifests/aaa.clusterserviceversion.yaml", csv("zzz.v9.9.9", "  version: 9.9.9\n"));
    auto b = bundle::load_dir(dir.path(), "");
    REQUIRE(b);
    CHECK(b->name == "zzz.v9.9.9");
    CHECK(b->objects.size() == 1);
    CHECK(only(*b, "olm.package").value["version"] == "9.9.9");
  }

  TEST_CASE("reads only the first document of a file") {
    TempDir dir;
    write_bundle(dir, "---\n" + csv("demo.v1.0.0", "  version: 1.0.0\n") +
                          "---\napiVersion: v1\nkind: ConfigMap\n---\n: broken [\n");
    auto b = bundle::load_dir(dir.path(), "");
    REQUIRE(b);
    CHECK(b->objects.size() == 1);
  }

  TEST_CASE("coerces numeric and boolean annotation values to strings") {
    TempDir dir;
    write_bundle(dir, csv("demo.v1.0.0", "  version: 1.0.0\n"), R"(annotations:
  operators.operatorframework.io.bundle.package.v1: 1.10
  operators.operatorframework.io.bundle.channels.v1: true
  operators.operatorframework.io.bundle.channel.default.v1: 0x10
)");
    auto parsed = bundle::parse_dir(dir.path());
    REQUIRE(parsed);
    CHECK(parsed->package == "1.1");
    CHECK(parsed->channels == std::vector<std::string>{"true"});
    CHECK(parsed->default_channel == "16");
  }

  TEST_CASE("a bundle without an annotations package keeps an empty package") {
    TempDir dir;
    write_bundle(dir, csv("demo.v1.0.0", "  version: 1.0.0\n"),
                 "annotations:\n  operators.operatorframework.io.bundle.channels.v1: a\n");
    auto b = bundle::load_dir(dir.path(), "");
    REQUIRE(b);
    CHECK(b->package.empty());
    CHECK(only(*b, "olm.package").raw == R"({"packageName":"","version":"1.0.0"})");
  }

  TEST_CASE("the CSV olm.properties package beats the annotations one") {
    TempDir dir;
    write_bundle(dir, R"(apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: demo.v1.0.0
  annotations:
    olm.properties: '[{"type":"olm.package","value":{"packageName":"fromcsv","version":"9.9.9"}}]'
spec:
  version: 1.0.0
)");
    auto b = bundle::load_dir(dir.path(), "");
    REQUIRE(b);
    CHECK(b->package == "demo");
    CHECK(only(*b, "olm.package").raw == R"({"packageName":"fromcsv","version":"9.9.9"})");
  }

  TEST_CASE("finds dependencies and properties documents whatever the file names") {
    TempDir dir;
    write_bundle(dir, csv("demo.v1.0.0", "  version: 1.0.0\n"));
    dir.write("metadata/a-props.json",
              R"({"properties": [{"type": "custom", "value": {"z": 1.0, "a": [true]}}]})");
    dir.write("metadata/z-deps.yaml", "dependencies:\n- type: olm.label\n  value: {label: x}\n");
    dir.write("metadata/sub/ignored.yaml", "properties:\n- type: never\n  value: 1\n");
    auto b = bundle::load_dir(dir.path(), "");
    REQUIRE(b);
    CHECK(property_types(*b) ==
          std::vector<std::string>{"custom", "olm.bundle.object", "olm.label", "olm.package"});
    // JSON files keep member order and number spelling.
    CHECK(b->properties[0].raw == R"({"z":1.0,"a":[true]})");
    CHECK(b->properties[2].raw == R"({"label":"x"})");
  }

  TEST_CASE("reports a CSV version that is not a string while deriving properties") {
    TempDir dir;
    write_bundle(dir, csv("demo.v1.0.0", "  version: 1.0\n"));
    CHECK(load_error(dir.path()) ==
          "failed to derive properties: json: cannot unmarshal number into Go value of type "
          "string");
  }

  TEST_CASE("reports related images of the wrong shape") {
    TempDir dir;
    write_bundle(dir, csv("demo.v1.0.0", "  version: 1.0.0\n  relatedImages: quay.io/x\n"));
    CHECK(load_error(dir.path()) ==
          "get related images for bundle \"demo.v1.0.0\": json: cannot unmarshal string into "
          "Go value of type []declcfg.RelatedImage");
  }

  TEST_CASE("reports non-string CSV annotations with the document marked") {
    TempDir dir;
    write_bundle(dir, R"(apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: demo.v1.0.0
  annotations:
    count: 3
spec: {}
)");
    CHECK(load_error(dir.path()) ==
          "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.annotations of "
          "type string at offset 113 (indicated by <==)\n"
          "{\n"
          "    \"apiVersion\": \"operators.coreos.com/v1alpha1\",\n"
          "    \"kind\": \"ClusterServiceVersion\",\n"
          "    \"metadata\": {\n"
          "        \"annotations\": {\n"
          "            \"count\": 3 <== \n"
          "        },\n"
          "        \"name\": \"demo.v1.0.0\"\n"
          "    },\n"
          "    \"spec\": {}\n"
          "}");
  }

  TEST_CASE("lists an operator image equal to the bundle image a second time, as upstream") {
    TempDir dir;
    write_bundle(dir, csv("demo.v1.0.0", R"(  version: 1.0.0
  install:
    strategy: deployment
    spec:
      deployments:
      - name: d
        spec:
          template:
            spec:
              containers:
              - image: quay.io/demo/bundle:v1
)"));
    auto b = bundle::load_dir(dir.path(), "quay.io/demo/bundle:v1");
    REQUIRE(b);
    REQUIRE(b->related_images.size() == 2);
    CHECK(b->related_images[0].image == "quay.io/demo/bundle:v1");
    CHECK(b->related_images[1].image == "quay.io/demo/bundle:v1");
  }

  TEST_CASE("ignores operator images of other install strategies") {
    TempDir dir;
    write_bundle(dir, csv("demo.v1.0.0", R"(  version: 1.0.0
  install:
    strategy: custom
    spec:
      deployments:
      - spec: {template: {spec: {containers: [{image: quay.io/x}]}}}
)"));
    auto b = bundle::load_dir(dir.path(), "");
    REQUIRE(b);
    CHECK(b->related_images.empty());
  }
}
