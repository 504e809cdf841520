#include "bundle/generate.hpp"
#include "bundle/image_check.hpp"
#include "bundle/package_dir.hpp"
#include "support/temp_dir.hpp"

#include <doctest/doctest.h>

using namespace opm;
using opm::test::TempDir;

namespace {

constexpr std::string_view k_csv_kind = "kind: ClusterServiceVersion\n";

std::string csv(std::string_view name, std::string_view spec = "") {
  return "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n"
         "  name: " +
         std::string(name) + "\nspec:\n  version: 1.0.0\n" + std::string(spec);
}

} // namespace

TEST_CASE("annotations.yaml quotes values that would read as other types, as go-yaml v2") {
  bundle::BundleLabels labels{"registry+v1", "1.0", "yes,no", "on"};
  CHECK(bundle::annotations_yaml(labels) ==
        "annotations:\n"
        "  operators.operatorframework.io.bundle.channel.default.v1: \"on\"\n"
        "  operators.operatorframework.io.bundle.channels.v1: yes,no\n"
        "  operators.operatorframework.io.bundle.manifests.v1: manifests/\n"
        "  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n"
        "  operators.operatorframework.io.bundle.metadata.v1: metadata/\n"
        "  operators.operatorframework.io.bundle.package.v1: \"1.0\"\n");
}

TEST_CASE("annotations.yaml leaves the default channel out when there is none") {
  std::string text = bundle::annotations_yaml({"plain", "p", "c", ""});
  CHECK(text.find("channel.default") == std::string::npos);
}

TEST_CASE("bundle.Dockerfile has a blank line before COPY only after a default channel") {
  std::string with = bundle::bundle_dockerfile({"helm", "p", "a,b", "a"}, "scratch", "m", "md");
  CHECK(with.ends_with("channel.default.v1=a\n\nCOPY m /manifests/\nCOPY md /metadata/\n"));
  std::string without = bundle::bundle_dockerfile({"helm", "p", "a", ""}, "base:1", "m", "md");
  CHECK(without.starts_with("FROM base:1\n\nLABEL "));
  CHECK(without.ends_with("channels.v1=a\nCOPY m /manifests/\nCOPY md /metadata/\n"));
}

TEST_CASE("an existing annotations.yaml must hold every generated annotation") {
  bundle::BundleLabels expected{"registry+v1", "gizmo", "stable", ""};
  std::string same = bundle::annotations_yaml(expected) + "  extra: kept\n";
  CHECK(bundle::check_existing_annotations(same, expected));

  auto one = bundle::check_existing_annotations(
      "annotations:\n  operators.operatorframework.io.bundle.package.v1: other\n"
      "  operators.operatorframework.io.bundle.channels.v1: stable\n"
      "  operators.operatorframework.io.bundle.manifests.v1: manifests/\n"
      "  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n"
      "  operators.operatorframework.io.bundle.metadata.v1: metadata/\n",
      expected);
  REQUIRE_FALSE(one);
  CHECK(one.error().message() ==
        "Expect field \"operators.operatorframework.io.bundle.package.v1\" to have value "
        "\"gizmo\" instead of \"other\"");

  auto several = bundle::check_existing_annotations("annotations: {}\n", expected);
  REQUIRE_FALSE(several);
  CHECK(several.error().message().starts_with(
      "[Missing field: operators.operatorframework.io.bundle.channels.v1, Missing field: "));
}

TEST_CASE("the media type: helm for a named chart, registry+v1 with a CSV, else plain") {
  TempDir dir;
  dir.write("m/crd.yaml", "kind: CustomResourceDefinition\n");
  CHECK(*bundle::detect_media_type(dir.path() / "m") == "plain");
  dir.write("m/csv.json", "{\"kind\": \"ClusterServiceVersion\"}");
  CHECK(*bundle::detect_media_type(dir.path() / "m") == "registry+v1");
  dir.write("m/Chart.yaml", "name: \"\"\n");
  CHECK(*bundle::detect_media_type(dir.path() / "m") == "registry+v1");
  dir.write("m/Chart.yaml", "name: demo\n");
  CHECK(*bundle::detect_media_type(dir.path() / "m") == "helm");

  auto empty = bundle::detect_media_type(dir.path() / "none");
  REQUIRE_FALSE(empty);
  CHECK(empty.error().message() ==
        "The directory " + (dir.path() / "none").string() + " contains no yaml files");
}

TEST_CASE("a bundle's channels are those whose replaces and skips chains reach its CSV") {
  TempDir dir;
  dir.write("pkg/p.package.yaml", "packageName: p\nchannels:\n- name: a\n  currentCSV: p.v3\n"
                                  "- name: b\n  currentCSV: p.v1\n- name: c\n  currentCSV: "
                                  "p.v9\n");
  dir.write("pkg/1/csv.yaml", csv("p.v1"));
  dir.write("pkg/2/csv.yaml", csv("p.v2", "  replaces: p.v1\n"));
  dir.write("pkg/3/csv.yaml", csv("p.v3", "  skips: [p.v2]\n"));
  auto placed = bundle::place_in_package(dir.path() / "pkg/1");
  REQUIRE(placed);
  CHECK(placed->package == "p");
  CHECK(placed->channels == std::vector<std::string>{"a", "b"});
  CHECK(placed->default_channel.empty()); // several channels and no defaultChannel

  dir.write("pkg/4/notes.txt", "no CSV here\n");
  auto broken = bundle::place_in_package(dir.path() / "pkg/1");
  REQUIRE_FALSE(broken);
  CHECK(broken.error().message() ==
        "error getting CSVs from bundles in the package directory, no ClusterServiceVersion "
        "object found in " +
            (dir.path() / "pkg/4").string());
}

TEST_CASE("a package manifest with one channel makes it the default") {
  TempDir dir;
  dir.write("pkg/p.package.yaml", "packageName: p\nchannels:\n- name: only\n  currentCSV: p.v1\n");
  dir.write("pkg/1/csv.yaml", csv("p.v1"));
  auto placed = bundle::place_in_package(dir.path() / "pkg/1");
  REQUIRE(placed);
  CHECK(placed->default_channel == "only");
}

TEST_CASE("the format check names the annotations file and checks each dependency") {
  TempDir dir;
  dir.write("b/manifests/csv.yaml", k_csv_kind);
  dir.write("b/metadata/annotations.yaml",
            "annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n"
            "  operators.operatorframework.io.bundle.manifests.v1: manifests/\n"
            "  operators.operatorframework.io.bundle.metadata.v1: metadata/\n"
            "  operators.operatorframework.io.bundle.package.v1: p\n"
            "  operators.operatorframework.io.bundle.channels.v1: c\n"
            "  operators.operatorframework.io.bundle.channel.default.v1: \"\"\n");
  dir.write("b/metadata/dependencies.yaml",
            "dependencies:\n- type: olm.gvk\n  value: {group: g, kind: K}\n"
            "- type: olm.package\n  value: {packageName: q, version: \"not a range\"}\n"
            "- type: olm.constraint\n  value: {cel: {rule: \"\"}}\n"
            "- type: olm.label\n  value: {label: 5}\n"
            "- type: olm.mystery\n  value: {}\n");
  auto problems = bundle::check_format(dir.path() / "b", {});
  CHECK(problems ==
        std::vector<std::string>{
            "metadata/annotations.yaml: Expecting annotation "
            "\"operators.operatorframework.io.bundle.channel.default.v1\" to have non-empty value",
            "metadata/dependencies.yaml: API Version is empty",
            "metadata/dependencies.yaml: Invalid semver format version",
            "metadata/dependencies.yaml: The CEL expression is missing",
            "metadata/dependencies.yaml: couldn't parse dependency of type olm.label",
            "metadata/dependencies.yaml: couldn't parse dependency of type olm.mystery"});
}

TEST_CASE("the format check stops when manifests/ or metadata/ is missing") {
  TempDir dir;
  dir.write("b/other.txt", "");
  CHECK(bundle::check_format(dir.path() / "b", {}) ==
        std::vector<std::string>{"Unable to locate manifests directory",
                                 "Unable to locate metadata directory"});
}

TEST_CASE("the content check: CSV names, install modes and required fields, CRD versions") {
  TempDir dir;
  dir.write("m/a.csv.yaml", csv("Bad_Name.v1.0.0", "  replaces: p.vx\n"));
  dir.write("m/b.crd.yaml", "apiVersion: apiextensions.k8s.io/v2\nkind: "
                            "CustomResourceDefinition\nmetadata: {name: x}\n");
  auto problems = bundle::check_content(dir.path() / "m", {}, {});
  REQUIRE(problems.size() == 6);
  CHECK(problems[0].starts_with("manifests/a.csv.yaml: Error: Value : (Bad_Name.v1.0.0) "
                                "metadata.name \"Bad_Name.v1.0.0\" is invalid:\n[a lowercase "
                                "RFC 1123 subdomain"));
  CHECK(problems[1] == "manifests/a.csv.yaml: Error: Value : (Bad_Name.v1.0.0) spec.replaces "
                       "\"p.vx\" contains an invalid semver \"vx\"");
  CHECK(problems[2] ==
        "manifests/a.csv.yaml: Error: Value : (Bad_Name.v1.0.0) install modes not found");
  CHECK(problems[3] == "manifests/a.csv.yaml: Error: Field Spec.InstallStrategy, Value struct");
  CHECK(problems[4] == "manifests/a.csv.yaml: Error: Field Spec.DisplayName, Value field");
  CHECK(problems[5] ==
        "manifests/b.crd.yaml: Unsupported api version of CRD: apiextensions.k8s.io/v2");
}

TEST_CASE("optional validators are a comma-separated list") {
  CHECK(bundle::parse_optional_validators("operatorhub, bundle-objects") ==
        std::set<std::string>{"operatorhub", "bundle-objects"});
  CHECK(bundle::validation_errors_text({"a", "b"}) == "Bundle validation errors: a,b");
}

TEST_CASE("an annotations.yaml that does not parse is named with the parser's message") {
  TempDir dir;
  dir.write("b/manifests/csv.yaml", k_csv_kind);
  dir.write("b/metadata/annotations.yaml", "annotations:\n  a: [\n");
  CHECK(bundle::check_format(dir.path() / "b", {}) ==
        std::vector<std::string>{"Could not find annotations file: metadata/annotations.yaml: "
                                 "yaml: line 2: did not find expected node content"});
}

TEST_CASE("a CSV lacks the fields its Go type requires only when they are empty") {
  TempDir dir;
  dir.write("m/csv.yaml", csv("p.v1.0.0", "  displayName: P\n  installModes: [{type: "
                                          "AllNamespaces, supported: true}]\n  install:\n"
                                          "    strategy: \"\"\n    spec:\n"
                                          "      permissions: [{serviceAccountName: sa}]\n"));
  CHECK(bundle::check_content(dir.path() / "m", {}, {}) ==
        std::vector<std::string>{
            "manifests/csv.yaml: Error: Field Spec.InstallStrategy.StrategyName, Value field",
            "manifests/csv.yaml: Error: Field Spec.InstallStrategy.StrategySpec.DeploymentSpecs, "
            "Value field"});
}
