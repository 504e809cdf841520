#include "bundle/synthesised_csv.hpp"
#include "json/text.hpp"
#include "json/writer.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace opm::bundle;
using opm::catalog::RelatedImage;

namespace {

// A stub with the given name and version, no package description, icon or related images.
CsvStub plain_stub(std::string_view name, std::string_view version) {
  return CsvStub{.name = name,
                 .version = version,
                 .package_description = "",
                 .icon = std::nullopt,
                 .related_images = {}};
}

// A stub with the icon whose data is "\x89PNG" (as base64) and no related images.
CsvStub stub_with_icon(std::string_view package_description) {
  return CsvStub{.name = "a.v1.0.0",
                 .version = "1.0.0",
                 .package_description = package_description,
                 .icon = CsvStub::Icon{"iVBORw==", "image/png"},
                 .related_images = {}};
}

} // namespace

// Goldens follow the Go types latest upstream marshals (operator-framework/api v0.45.0,
// k8s.io/apimachinery v0.36.2): creationTimestamp is omitzero, so it is left out; install,
// both definition structs, provider, cleanup and status are structs, so always written.
TEST_SUITE("synthesised csv") {
  TEST_CASE("an empty metadata gives the stub every CSV has") {
    CsvStub stub = plain_stub("a.v1.0.0", "1.0.0");
    CHECK(synthesised_csv("{}", stub) ==
          R"({"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1",)"
          R"("metadata":{"name":"a.v1.0.0"},"spec":{"install":{"strategy":"deployment",)"
          R"("spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},)"
          R"("apiservicedefinitions":{},"displayName":"","provider":{},)"
          R"("cleanup":{"enabled":false}},"status":{"cleanup":{}}})");
  }

  TEST_CASE("the metadata fields go where the CSV struct has them, in its order") {
    const std::string metadata =
        R"({"annotations":{"z":"1","alm-examples":"[{\"a\":\"<b>\"}]"},)"
        R"("apiServiceDefinitions":{"owned":[{"name":"n","group":"g","version":"v1","kind":"K",)"
        R"("deploymentName":"d","containerPort":8443}]},)"
        R"("crdDescriptions":{"required":[{"name":"ws.x","version":"v1","kind":"W"}],)"
        R"("owned":[{"name":"cs.x","version":"v1","kind":"C","displayName":"Cs",)"
        R"("resources":[{"name":"","kind":"Pod","version":"v1"}],)"
        R"("specDescriptors":[{"path":"p","x-descriptors":["urn:a"],"value": {"b":"&","a":1}},)"
        R"({"path":"q","value":null}]}]},)"
        R"("description":"Does <things> & more","displayName":"A Operator",)"
        R"("installModes":[{"type":"OwnNamespace","supported":true},)"
        R"({"type":"AllNamespaces","supported":false}],"keywords":["k1","k2"],)"
        R"("labels":{"operatorframework.io/arch.amd64":"supported"},)"
        R"("links":[{"name":"Docs","url":"https://x"}],"maintainers":[{"email":"m@x"}],)"
        R"("maturity":"stable","minKubeVersion":"1.25.0",)"
        R"("nativeAPIs":[{"group":"","version":"v1","kind":"Pod"}],)"
        R"("provider":{"name":"Acme"}})";
    // The icon's data, "\x89PNG", as base64.
    const CsvStub::Icon icon{"iVBORw==", "image/png"};
    const std::vector<RelatedImage> images{{"op", "quay.io/a/op@sha256:1"}, {"", "quay.io/b"}};
    CsvStub stub{.name = "a.v1.2.3",
                 .version = "1.2.3-rc.1",
                 .package_description = "not used",
                 .icon = icon,
                 .related_images = images};
    CHECK(synthesised_csv(metadata, stub) ==
          R"({"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1",)"
          R"("metadata":{"name":"a.v1.2.3",)"
          R"("labels":{"operatorframework.io/arch.amd64":"supported"},)"
          R"("annotations":{"alm-examples":"[{\"a\":\"\u003cb\u003e\"}]","z":"1"}},)"
          R"("spec":{"install":{"strategy":"deployment","spec":{"deployments":null}},)"
          R"("version":"1.2.3-rc.1","maturity":"stable",)"
          R"("customresourcedefinitions":{"owned":[{"name":"cs.x","version":"v1","kind":"C",)"
          R"("displayName":"Cs","resources":[{"name":"","kind":"Pod","version":"v1"}],)"
          R"("specDescriptors":[{"path":"p","x-descriptors":["urn:a"],)"
          R"("value":{"b":"\u0026","a":1}},{"path":"q","value":null}]}],)"
          R"("required":[{"name":"ws.x","version":"v1","kind":"W"}]},)"
          R"("apiservicedefinitions":{"owned":[{"name":"n","group":"g","version":"v1",)"
          R"("kind":"K","deploymentName":"d","containerPort":8443}]},)"
          R"("nativeAPIs":[{"group":"","version":"v1","kind":"Pod"}],)"
          R"("minKubeVersion":"1.25.0","displayName":"A Operator",)"
          R"("description":"Does \u003cthings\u003e \u0026 more","keywords":["k1","k2"],)"
          R"("maintainers":[{"email":"m@x"}],"provider":{"name":"Acme"},)"
          R"("links":[{"name":"Docs","url":"https://x"}],)"
          R"("icon":[{"base64data":"iVBORw==","mediatype":"image/png"}],)"
          R"("installModes":[{"type":"OwnNamespace","supported":true},)"
          R"({"type":"AllNamespaces","supported":false}],"cleanup":{"enabled":false},)"
          R"("relatedImages":[{"name":"op","image":"quay.io/a/op@sha256:1"},)"
          R"({"name":"","image":"quay.io/b"}]},"status":{"cleanup":{}}})");
  }

  TEST_CASE("the package description stands in for a missing one") {
    CsvStub stub{.name = "a",
                 .version = "0.0.1",
                 .package_description = "From the package",
                 .icon = std::nullopt,
                 .related_images = {}};
    auto csv = synthesised_csv(R"({"description":"","displayName":"A"})", stub);
    CHECK(csv.find(R"("displayName":"A","description":"From the package","provider":{})") !=
          std::string::npos);
  }

  TEST_CASE("members match ignoring case, the last one wins, null leaves a string as it was") {
    CsvStub stub = plain_stub("a", "1.0.0");
    auto csv = synthesised_csv(
        R"({"DisplayName":"first","displayname":"second","displayName":null,)"
        R"("Keywords":["x"],"keywords":null,"Provider":{"name":"P"},"provider":{"URL":"u"}})",
        stub);
    CHECK(csv.find(R"("displayName":"second","provider":{"name":"P","url":"u"},"cleanup")") !=
          std::string::npos);
  }

  TEST_CASE("an icon without data is written with empty data") {
    CsvStub stub = plain_stub("a", "1.0.0");
    stub.icon = CsvStub::Icon{"", "image/svg+xml"};
    CHECK(synthesised_csv("{}", stub)
              .find(R"("icon":[{"base64data":"","mediatype":"image/svg+xml"}])") !=
          std::string::npos);
  }

  TEST_CASE("a decoded metadata gives the CSV its compact text, members in key order, gives") {
    const CsvStub stub = stub_with_icon("From the package");
    for (std::string_view metadata :
         {R"({})", R"({"description":"","displayName":"A"})",
          R"({"DisplayName":"first","displayname":"second","displayName":null,)"
          R"("Keywords":["x"],"keywords":null,"Provider":{"name":"P"},"provider":{"URL":"u"}})",
          R"({"annotations":{"z":"1","a":"<\u2028>"},"labels":null,"Labels":{"k":"v"},)"
          R"("crdDescriptions":{"owned":[{"name":"c","specDescriptors":[{"path":"p",)"
          R"("value":{"b":"&","a":[1.5,-2,1e21]}},{"path":"q","value":null}]}]},)"
          R"("apiServiceDefinitions":{"owned":[{"containerPort":8443.9}]},)"
          R"("installModes":[{"type":"OwnNamespace","supported":true},{"supported":null}]})"}) {
      CAPTURE(metadata);
      const opm::catalog::Property decoded{"olm.csv.metadata",
                                           opm::json::text::parse(metadata).value(), ""};
      CHECK(synthesised_csv(decoded, stub) ==
            synthesised_csv(opm::json::to_text(decoded.value), stub));
    }
  }

  TEST_CASE("annotations of several members merge in key order, the last value of a key kept") {
    // A decoded value has its members in key order ("ANNOTATIONS", "Annotations",
    // "annotations"), a JSON text as written.
    const CsvStub stub = plain_stub("a", "1.0.0");
    struct Case {
      std::string text;
      std::string as_written;
      std::string decoded;
    };
    const Case cases[] = {
        {R"({"annotations":{"b":"1","a":"x","b":"2"},"Annotations":{"a":"y","c":"3"}})",
         R"("annotations":{"a":"y","b":"2","c":"3"})",
         R"("annotations":{"a":"x","b":"2","c":"3"})"},
        {R"({"annotations":{"b":"1"},"ANNOTATIONS":null,"labels":{"z":"1"},"Annotations":{"c":"3"}})",
         R"("annotations":{"c":"3"})", R"("annotations":{"b":"1","c":"3"})"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.text);
      const opm::catalog::Property kept{"olm.csv.metadata", opm::json::text::parse(c.text).value(),
                                        c.text};
      const opm::catalog::Property decoded{"olm.csv.metadata", kept.value, ""};
      CHECK(synthesised_csv(kept, stub).find(c.as_written) != std::string::npos);
      CHECK(synthesised_csv(decoded, stub).find(c.decoded) != std::string::npos);
    }
  }

  TEST_CASE("a kept metadata makes the CSV its property makes, as text or decoded") {
    const CsvStub stub = stub_with_icon("From the package");
    for (std::string_view text :
         {R"({})", R"({"displayName":"A","links":[{"name":"l","url":"u"}]})",
          R"({"DisplayName":"first","displayname":"second","displayName":null,)"
          R"("Keywords":["x"],"keywords":null,"Provider":{"name":"P"},"provider":{"URL":"u"}})",
          R"({"annotations":{"z":"1","a":"<\u2028>","b":"x","b":"y"},"labels":null,)"
          R"("Labels":{"k":"v"},"crdDescriptions":{"owned":[{"name":"c","specDescriptors":[)"
          R"({"path":"p","value":{"b":"&","a":[1.5,-2,1e21,18446744073709551615,true,null]}},)"
          R"({"path":"q","value":null},{"path":"r","value":"\u0000"}]}]},)"
          R"("apiServiceDefinitions":{"owned":[{"containerPort":8443.9},{"containerPort":-7}]},)"
          R"("installModes":[{"type":"OwnNamespace","supported":true},{"supported":null}]})"}) {
      CAPTURE(text);
      const opm::catalog::Property as_text{"olm.csv.metadata", opm::json::text::parse(text).value(),
                                           std::string(text)};
      const opm::catalog::Property decoded{"olm.csv.metadata", as_text.value, ""};
      opm::json::Flattener flattener;
      CHECK(KeptCsvMetadata(as_text, flattener).csv(stub) == synthesised_csv(as_text, stub));
      CHECK(KeptCsvMetadata(decoded, flattener).csv(stub) == synthesised_csv(decoded, stub));
    }
  }

  TEST_CASE("a property that keeps its JSON text is read from the text, in its member order") {
    CsvStub stub = plain_stub("a", "1.0.0");
    const std::string text =
        R"({"crdDescriptions":{"owned":[{"name":"c","specDescriptors":[{"path":"p",)"
        R"("value":{"b":"&","a":1}}]}]}})";
    const opm::catalog::Property kept{"olm.csv.metadata", opm::json::text::parse(text).value(),
                                      text};
    CHECK(synthesised_csv(kept, stub).find(R"("value":{"b":"\u0026","a":1})") != std::string::npos);
    const opm::catalog::Property decoded{"olm.csv.metadata", kept.value, ""};
    CHECK(synthesised_csv(decoded, stub).find(R"("value":{"a":1,"b":"\u0026"})") !=
          std::string::npos);
  }
}
