#include "serve/cache.hpp"
#include "serve/store.hpp"
#include "serve/store_backend.hpp"
#include "support/temp_dir.hpp"

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace opm::serve {
namespace {

// Two packages. etcd: stable is 1 <- 2 <- 3 (3 also skips 1 and a name outside the channel),
// alpha is 2 <- 4 (4 also skips 2, which it replaces); 1 provides EtcdCluster v1beta1, 2 to 4
// v1beta2. argo: one bundle in one channel, providing EtcdCluster v1beta2 too, and deprecated with
// its channel.
constexpr std::string_view k_catalog =
    R"({"schema":"olm.package","name":"etcd","defaultChannel":"stable"}
{"schema":"olm.channel","package":"etcd","name":"stable","entries":[
  {"name":"etcd.v1"},{"name":"etcd.v2","replaces":"etcd.v1"},
  {"name":"etcd.v3","replaces":"etcd.v2","skips":["etcd.v1","etcd.v0"]}]}
{"schema":"olm.channel","package":"etcd","name":"alpha","entries":[
  {"name":"etcd.v2"},{"name":"etcd.v4","replaces":"etcd.v2","skips":["etcd.v2"]}]}
{"schema":"olm.bundle","package":"etcd","name":"etcd.v1","image":"quay.io/etcd:v1","properties":[
  {"type":"olm.package","value":{"packageName":"etcd","version":"1.0.0"}},
  {"type":"olm.gvk","value":{"group":"etcd.io","kind":"EtcdCluster","version":"v1beta1"}}]}
{"schema":"olm.bundle","package":"etcd","name":"etcd.v2","image":"quay.io/etcd:v2","properties":[
  {"type":"olm.package","value":{"packageName":"etcd","version":"2.0.0"}},
  {"type":"olm.gvk","value":{"group":"etcd.io","kind":"EtcdCluster","version":"v1beta2"}}]}
{"schema":"olm.bundle","package":"etcd","name":"etcd.v3","image":"quay.io/etcd:v3","properties":[
  {"type":"olm.package","value":{"packageName":"etcd","version":"3.0.0"}},
  {"type":"olm.gvk","value":{"group":"etcd.io","kind":"EtcdCluster","version":"v1beta2"}}]}
{"schema":"olm.bundle","package":"etcd","name":"etcd.v4","image":"quay.io/etcd:v4","properties":[
  {"type":"olm.package","value":{"packageName":"etcd","version":"4.0.0"}},
  {"type":"olm.gvk","value":{"group":"etcd.io","kind":"EtcdCluster","version":"v1beta2"}}]}
{"schema":"olm.package","name":"argo","defaultChannel":"beta"}
{"schema":"olm.channel","package":"argo","name":"beta","entries":[{"name":"argo.v1"}]}
{"schema":"olm.bundle","package":"argo","name":"argo.v1","image":"quay.io/argo:v1","properties":[
  {"type":"olm.package","value":{"packageName":"argo","version":"1.0.0"}},
  {"type":"olm.gvk","value":{"group":"etcd.io","kind":"EtcdCluster","version":"v1beta2"}}]}
{"schema":"olm.deprecations","package":"argo","entries":[
  {"reference":{"schema":"olm.package"},"message":"argo is no more"},
  {"reference":{"schema":"olm.channel","name":"beta"},"message":"use stable"}]}
)";

Store load_test_store() {
  test::TempDir dir;
  dir.write("catalog/index.json", k_catalog);
  auto catalog = load_catalog((dir.path() / "catalog").string());
  REQUIRE_MESSAGE(catalog.has_value(), catalog.error().describe());
  return Store(std::move(*catalog));
}

const Store& store() {
  static const Store loaded = load_test_store();
  return loaded;
}

// "package/channel/bundle replaces" for each entry, to compare in one line.
std::vector<std::string> described(const std::vector<api::ChannelEntry>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) {
    out.push_back(e.packagename() + "/" + e.channelname() + "/" + e.bundlename() + " " +
                  e.replaces());
  }
  return out;
}

std::string error_of(const auto& result) {
  REQUIRE_FALSE(result.has_value());
  CHECK(result.error().code() == Errc::not_found);
  return result.error().message();
}

} // namespace

TEST_SUITE("serve store") {
  TEST_CASE("lists package names in byte-wise order") {
    CHECK(store().package_names() == std::vector<std::string>{"argo", "etcd"});
  }

  TEST_CASE("answers a package with its channels' heads and default channel") {
    auto pkg = store().package("etcd");
    REQUIRE(pkg.has_value());
    CHECK(pkg->name() == "etcd");
    CHECK(pkg->defaultchannelname() == "stable");
    REQUIRE(pkg->channels_size() == 2);
    CHECK(pkg->channels(0).name() == "alpha");
    CHECK(pkg->channels(0).csvname() == "etcd.v4");
    CHECK(pkg->channels(1).name() == "stable");
    CHECK(pkg->channels(1).csvname() == "etcd.v3");
    CHECK_FALSE(pkg->has_deprecation());
    CHECK_FALSE(pkg->channels(1).has_deprecation());
  }

  TEST_CASE("a deprecated package and channel carry their messages") {
    auto pkg = store().package("argo");
    REQUIRE(pkg.has_value());
    CHECK(pkg->deprecation().message() == "argo is no more");
    REQUIRE(pkg->channels_size() == 1);
    CHECK(pkg->channels(0).deprecation().message() == "use stable");
  }

  TEST_CASE("a missing package is not found, its name quoted") {
    CHECK(error_of(store().package("nope")) == R"(package "nope" not found)");
  }

  TEST_CASE("finds a bundle by package, channel and name") {
    auto entry = store().bundle("etcd", "alpha", "etcd.v2");
    REQUIRE(entry.has_value());
    CHECK((*entry)->name == "etcd.v2");
    CHECK((*entry)->channel_name == "alpha");
    CHECK((*entry)->bundle_path == "quay.io/etcd:v2");
    CHECK((*entry)->full().version() == "2.0.0");
  }

  TEST_CASE("a bundle is kept as protobuf's own encoding of every field latest sends") {
    // Property values as upstream's loader re-encodes each document: members in key order,
    // HTML characters as they are; olm.bundle.object and olm.csv.metadata are left out.
    test::TempDir dir;
    dir.write("catalog/index.json",
              R"({"schema":"olm.package","name":"kafka","defaultChannel":"stable"}
{"schema":"olm.channel","package":"kafka","name":"stable","entries":[
  {"name":"kafka.v1","skipRange":"<1.0.0"}]}
{"schema":"olm.bundle","package":"kafka","name":"kafka.v1","image":"quay.io/kafka:v1",
 "properties":[
  {"type":"olm.package","value":{"packageName":"kafka","version":"1.0.0"}},
  {"type":"olm.gvk","value":{"group":"kafka.io","kind":"Topic","version":"v1"}},
  {"type":"olm.gvk.required","value":{"group":"etcd.io","kind":"EtcdCluster","version":"v1"}},
  {"type":"olm.package.required","value":{"packageName":"etcd","versionRange":">=1.0.0"}},
  {"type":"example.custom","value":{"b":[1,2],"a":"<x>"}},
  {"type":"olm.bundle.object","value":{"data":"eyJraW5kIjoiQ29uZmlnTWFwIn0="}},
  {"type":"olm.csv.metadata","value":{"displayName":"Kafka"}}]}
{"schema":"olm.deprecations","package":"kafka","entries":[
  {"reference":{"schema":"olm.bundle","name":"kafka.v1"},"message":"use v2"}]}
)");
    auto catalog = load_catalog((dir.path() / "catalog").string());
    REQUIRE_MESSAGE(catalog.has_value(), catalog.error().describe());
    const Store kafka(std::move(*catalog));
    auto entry = kafka.bundle("kafka", "stable", "kafka.v1");
    REQUIRE(entry.has_value());
    const std::string bytes = (*entry)->stored.bytes();
    api::Bundle decoded;
    REQUIRE(decoded.ParseFromString(bytes));
    CHECK(decoded.SerializeAsString() == bytes);
    CHECK(decoded.csvname() == "kafka.v1");
    CHECK(decoded.packagename() == "kafka");
    CHECK(decoded.channelname() == "stable");
    CHECK(decoded.bundlepath() == "quay.io/kafka:v1");
    CHECK(decoded.version() == "1.0.0");
    CHECK(decoded.skiprange() == "<1.0.0");
    CHECK(decoded.replaces().empty());
    CHECK(decoded.skips().empty());
    // A CSV is made from olm.csv.metadata; the bundle's own objects stay its objects.
    CHECK(decoded.csvjson().starts_with(R"({"kind":"ClusterServiceVersion",)"));
    CHECK(decoded.csvjson().find(R"("displayName":"Kafka")") != std::string::npos);
    REQUIRE(decoded.object_size() == 1);
    CHECK(decoded.object(0) == R"({"kind":"ConfigMap"})");
    REQUIRE(decoded.providedapis_size() == 1);
    CHECK(decoded.providedapis(0).group() == "kafka.io");
    CHECK(decoded.providedapis(0).version() == "v1");
    CHECK(decoded.providedapis(0).kind() == "Topic");
    REQUIRE(decoded.requiredapis_size() == 1);
    CHECK(decoded.requiredapis(0).kind() == "EtcdCluster");
    REQUIRE(decoded.dependencies_size() == 2);
    CHECK(decoded.dependencies(0).type() == "olm.gvk");
    CHECK(decoded.dependencies(0).value() ==
          R"({"group":"etcd.io","kind":"EtcdCluster","version":"v1"})");
    CHECK(decoded.dependencies(1).type() == "olm.package");
    CHECK(decoded.dependencies(1).value() == R"({"packageName":"etcd","version":">=1.0.0"})");
    std::vector<std::string> properties;
    for (const auto& p : decoded.properties()) {
      properties.push_back(p.type() + " " + p.value());
    }
    CHECK(properties ==
          std::vector<std::string>{
              R"(olm.package {"packageName":"kafka","version":"1.0.0"})",
              R"(olm.gvk {"group":"kafka.io","kind":"Topic","version":"v1"})",
              R"(olm.gvk.required {"group":"etcd.io","kind":"EtcdCluster","version":"v1"})",
              R"(olm.package.required {"packageName":"etcd","versionRange":">=1.0.0"})",
              R"(example.custom {"a":"<x>","b":[1,2]})"});
    CHECK(decoded.deprecation().message() == "use v2");
  }

  TEST_CASE("names what is missing of a bundle's package, channel or name") {
    CHECK(error_of(store().bundle("nope", "stable", "etcd.v1")) == R"(package "nope" not found)");
    CHECK(error_of(store().bundle("etcd", "beta", "etcd.v1")) ==
          R"(package "etcd", channel "beta" not found)");
    CHECK(error_of(store().bundle("etcd", "alpha", "etcd.v1")) ==
          R"(package "etcd", channel "alpha", bundle "etcd.v1" not found)");
  }

  TEST_CASE("the bundle for a channel is its head") {
    auto entry = store().bundle_for_channel("etcd", "stable");
    REQUIRE(entry.has_value());
    CHECK((*entry)->name == "etcd.v3");
    CHECK(error_of(store().bundle_for_channel("etcd", "beta")) ==
          R"(package "etcd", channel "beta" not found)");
  }

  TEST_CASE("entries that replace a bundle include those that skip it, with their replaces") {
    CHECK(described(*store().entries_that_replace("etcd.v2")) ==
          std::vector<std::string>{"etcd/alpha/etcd.v4 etcd.v2", "etcd/stable/etcd.v3 etcd.v2"});
    CHECK(described(*store().entries_that_replace("etcd.v1")) ==
          std::vector<std::string>{"etcd/stable/etcd.v2 etcd.v1", "etcd/stable/etcd.v3 etcd.v2"});
    CHECK(error_of(store().entries_that_replace("etcd.v4")) ==
          "no channel entries found that replace etcd.v4");
  }

  TEST_CASE("the bundle that replaces a name in a channel, by replaces or skips") {
    auto by_replaces = store().bundle_that_replaces("etcd.v2", "etcd", "stable");
    REQUIRE(by_replaces.has_value());
    CHECK((*by_replaces)->name == "etcd.v3");
    auto by_skips = store().bundle_that_replaces("etcd.v0", "etcd", "stable");
    REQUIRE(by_skips.has_value());
    CHECK((*by_skips)->name == "etcd.v3");
    CHECK(error_of(store().bundle_that_replaces("etcd.v3", "etcd", "stable")) ==
          R"(no entry found for package "etcd", channel "stable")");
    CHECK(error_of(store().bundle_that_replaces("etcd.v1", "nope", "stable")) ==
          "package nope not found");
    CHECK(error_of(store().bundle_that_replaces("etcd.v1", "etcd", "beta")) ==
          R"(package "etcd", channel "beta" not found)");
  }

  TEST_CASE("entries that provide an api: every provider, and one entry per other skip") {
    CHECK(described(*store().entries_that_provide("etcd.io", "v1beta2", "EtcdCluster")) ==
          std::vector<std::string>{"argo/beta/argo.v1 ", "etcd/alpha/etcd.v2 ",
                                   "etcd/alpha/etcd.v4 etcd.v2", "etcd/stable/etcd.v2 etcd.v1",
                                   "etcd/stable/etcd.v3 etcd.v2", "etcd/stable/etcd.v3 etcd.v1",
                                   "etcd/stable/etcd.v3 etcd.v0"});
    CHECK(
        error_of(store().entries_that_provide("etcd.io", "v1", "EtcdCluster")) ==
        R"(no channel entries found that provide group:"etcd.io" version:"v1" kind:"EtcdCluster")");
  }

  TEST_CASE("latest entries that provide an api: channel heads, skips only within the channel") {
    CHECK(described(*store().latest_entries_that_provide("etcd.io", "v1beta2", "EtcdCluster")) ==
          std::vector<std::string>{"argo/beta/argo.v1 ", "etcd/alpha/etcd.v4 etcd.v2",
                                   "etcd/stable/etcd.v3 etcd.v2", "etcd/stable/etcd.v3 etcd.v1"});
    CHECK(
        error_of(store().latest_entries_that_provide("etcd.io", "v1beta1", "EtcdCluster")) ==
        R"(no channel entries found that provide group:"etcd.io" version:"v1beta1" kind:"EtcdCluster")");
  }

  TEST_CASE("the default bundle that provides an api is the first package's default head") {
    auto entry = store().default_bundle_that_provides("etcd.io", "v1beta2", "EtcdCluster");
    REQUIRE(entry.has_value());
    CHECK((*entry)->package_name == "argo");
    CHECK((*entry)->name == "argo.v1");
    CHECK(
        error_of(store().default_bundle_that_provides("etcd.io", "v1", "EtcdCluster")) ==
        R"(no channel entries found that provide group:"etcd.io" version:"v1" kind:"EtcdCluster")");
  }

  TEST_CASE(
      "a CSV made from a YAML catalog's olm.csv.metadata is made once, when an answer needs it") {
    test::TempDir dir;
    dir.write("catalog/index.yaml", R"(schema: olm.package
name: mq
defaultChannel: stable
icon:
  base64data: iVBORw==
  mediatype: image/png
---
schema: olm.channel
package: mq
name: stable
entries:
  - name: mq.v1
---
schema: olm.channel
package: mq
name: fast
entries:
  - name: mq.v1
---
schema: olm.bundle
package: mq
name: mq.v1
image: quay.io/mq:v1
relatedImages:
  - name: broker
    image: quay.io/mq/broker:v1
properties:
  - type: olm.package
    value: {packageName: mq, version: 1.0.0}
  - type: olm.csv.metadata
    value:
      displayName: MQ <broker>
      keywords: [queue]
      installModes:
        - {type: AllNamespaces, supported: true}
)");
    auto catalog = load_catalog((dir.path() / "catalog").string());
    REQUIRE_MESSAGE(catalog.has_value(), catalog.error().describe());
    const Store mq(std::move(*catalog));
    const std::string csv =
        R"({"kind":"ClusterServiceVersion","apiVersion":"operators.coreos.com/v1alpha1",)"
        R"("metadata":{"name":"mq.v1"},"spec":{"install":{"strategy":"deployment",)"
        R"("spec":{"deployments":null}},"version":"1.0.0","customresourcedefinitions":{},)"
        R"("apiservicedefinitions":{},"displayName":"MQ \u003cbroker\u003e","keywords":["queue"],)"
        R"("provider":{},"icon":[{"base64data":"iVBORw==","mediatype":"image/png"}],)"
        R"("installModes":[{"type":"AllNamespaces","supported":true}],"cleanup":{"enabled":false},)"
        R"("relatedImages":[{"name":"broker","image":"quay.io/mq/broker:v1"}]},)"
        R"("status":{"cleanup":{}}})";
    std::vector<const char*> made_csvs; // where each channel's answer has its CSV
    for (std::string_view channel : {"stable", "fast"}) {
      CAPTURE(channel);
      auto entry = mq.bundle("mq", channel, "mq.v1");
      REQUIRE(entry.has_value());
      const StoredBundle& stored = (*entry)->stored;
      api::Bundle decoded;
      REQUIRE(decoded.ParseFromString(stored.bytes()));
      CHECK(decoded.csvjson() == csv);
      REQUIRE(decoded.object_size() == 1);
      CHECK(decoded.object(0) == csv);
      // The answer the backend gives is the same bytes, as views of the CSV made once.
      auto answer = StoredAnswers::bundle(*entry);
      REQUIRE(answer.has_value());
      REQUIRE(std::holds_alternative<StoredPieces>(*answer));
      std::string joined;
      std::vector<const char*> csv_pieces;
      for (std::string_view piece : std::get<StoredPieces>(*answer)) {
        joined.append(piece);
        if (piece == csv) {
          csv_pieces.push_back(piece.data());
        }
      }
      CHECK(joined == stored.bytes());
      REQUIRE(csv_pieces.size() == 2);
      CHECK(csv_pieces[0] == csv_pieces[1]);
      made_csvs.push_back(csv_pieces[0]);
      // A listing with manifests carries the made CSV and the edges given.
      std::string listing;
      stored.append_listing(listing, true, "mq.v0", std::vector<std::string>{"mq.v00"});
      api::Bundle listed;
      REQUIRE(listed.ParseFromString(listing));
      CHECK(listed.csvjson() == csv);
      CHECK(listed.object_size() == 1);
      CHECK(listed.replaces() == "mq.v0");
      CHECK(listed.skips_size() == 1);
      listing.clear();
      stored.append_listing(listing, false, "", {});
      api::Bundle bare;
      REQUIRE(bare.ParseFromString(listing));
      CHECK(bare.csvjson().empty());
      CHECK(bare.object_size() == 0);
      CHECK(bare.csvname() == "mq.v1");
    }
    // The bundle is in two channels; its CSV is made once for both.
    REQUIRE(made_csvs.size() == 2);
    CHECK(made_csvs[0] == made_csvs[1]);
  }

  TEST_CASE("lists bundles by channel, then package, then name, replaces and skips kept") {
    StoreBackend backend(store());
    auto list = backend.list_bundles();
    REQUIRE(list.has_value());
    std::vector<std::string> seen;
    std::string wire;
    while ((*list)->next(wire)) {
      api::Bundle b;
      REQUIRE(b.ParseFromString(wire));
      std::string skips;
      for (const auto& s : b.skips()) {
        skips += " " + s;
      }
      seen.push_back(b.channelname() + "/" + b.packagename() + "/" + b.csvname() + " " +
                     b.replaces() + skips);
    }
    CHECK(seen == std::vector<std::string>{
                      "alpha/etcd/etcd.v2 ", "alpha/etcd/etcd.v4 etcd.v2 etcd.v2",
                      "beta/argo/argo.v1 ", "stable/etcd/etcd.v1 ", "stable/etcd/etcd.v2 etcd.v1",
                      "stable/etcd/etcd.v3 etcd.v2 etcd.v1 etcd.v0"});
  }

  TEST_CASE("the backend lists package names as the store does") {
    StoreBackend backend(store());
    CHECK(backend.package_names() == std::vector<std::string>{"argo", "etcd"});
  }
}

} // namespace opm::serve
