#include "catalog/decode.hpp"
#include "catalog/load.hpp"
#include "catalog/write.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

using namespace opm::catalog;
using opm::Json;

namespace {

std::string written(const DeclarativeConfig& cfg, Format format) {
  std::ostringstream out;
  write(cfg, format, out);
  return out.str();
}

ChannelEntry entry(std::string name, std::string replaces = {}, std::vector<std::string> skips = {},
                   std::string skip_range = {}) {
  return {std::move(name), std::move(replaces), std::move(skips), std::move(skip_range)};
}

Property prop(std::string type, Json value) { return {std::move(type), std::move(value)}; }

Meta other(std::string schema, std::string package, Json blob) {
  Meta m;
  m.schema = std::move(schema);
  m.package = std::move(package);
  m.blob = std::move(blob);
  return m;
}

// The input of the specification's worked example, as the loader would produce it
// (bundle related images already sorted by render).
DeclarativeConfig etcd_example() {
  DeclarativeConfig cfg;
  Package package;
  package.name = "etcd";
  package.default_channel = "stable";
  package.description = "Etcd operator.\nManages <etcd> clusters & backups.\n";
  package.icon = Icon{"<svg></svg>", "image/svg+xml"};
  cfg.packages.push_back(package);

  Channel stable;
  stable.name = "stable";
  stable.package = "etcd";
  stable.entries = std::vector<ChannelEntry>{
      entry("etcd.v0.9.2", "etcd.v0.9.0", {}, ">=0.9.0 <0.9.2"), entry("etcd.v0.9.0")};
  cfg.channels.push_back(stable);
  Channel alpha;
  alpha.name = "alpha";
  alpha.package = "etcd";
  alpha.entries = std::vector<ChannelEntry>{entry("etcd.v0.9.0")};
  cfg.channels.push_back(alpha);

  Bundle v092;
  v092.name = "etcd.v0.9.2";
  v092.package = "etcd";
  v092.image = "quay.io/example/etcd-bundle:v0.9.2";
  v092.related_images = {{"bundle", "quay.io/example/etcd-bundle:v0.9.2"},
                         {"operator", "quay.io/example/etcd:v0.9.2"}};
  v092.properties = {prop("olm.package", {{"packageName", "etcd"}, {"version", "0.9.2"}}),
                     prop("olm.gvk", {{"group", "etcd.database.coreos.com"},
                                      {"kind", "EtcdCluster"},
                                      {"version", "v1beta2"}})};
  cfg.bundles.push_back(v092);
  Bundle v090;
  v090.name = "etcd.v0.9.0";
  v090.package = "etcd";
  v090.image = "quay.io/example/etcd-bundle:v0.9.0";
  v090.properties = {prop("olm.package", {{"packageName", "etcd"}, {"version", "0.9.0"}})};
  cfg.bundles.push_back(v090);

  cfg.others.push_back(other("example.note", "etcd",
                             {{"package", "etcd"},
                              {"schema", "example.note"},
                              {"text", "first note, a long sentence that will be folded by the "
                                       "YAML writer at eighty columns"}}));
  cfg.others.push_back(
      other("example.global", "", {{"schema", "example.global"}, {"zeta", 1.0}, {"alpha", "a<b"}}));
  return cfg;
}

} // namespace

TEST_SUITE("catalog::write") {
  TEST_CASE("writes the worked example as JSON") {
    CHECK(written(etcd_example(), Format::json) == R"({
    "schema": "olm.package",
    "name": "etcd",
    "defaultChannel": "stable",
    "icon": {
        "base64data": "PHN2Zz48L3N2Zz4=",
        "mediatype": "image/svg+xml"
    },
    "description": "Etcd operator.\nManages <etcd> clusters & backups.\n"
}
{
    "schema": "olm.channel",
    "name": "alpha",
    "package": "etcd",
    "entries": [
        {
            "name": "etcd.v0.9.0"
        }
    ]
}
{
    "schema": "olm.channel",
    "name": "stable",
    "package": "etcd",
    "entries": [
        {
            "name": "etcd.v0.9.2",
            "replaces": "etcd.v0.9.0",
            "skipRange": ">=0.9.0 <0.9.2"
        },
        {
            "name": "etcd.v0.9.0"
        }
    ]
}
{
    "schema": "olm.bundle",
    "name": "etcd.v0.9.0",
    "package": "etcd",
    "image": "quay.io/example/etcd-bundle:v0.9.0",
    "properties": [
        {
            "type": "olm.package",
            "value": {
                "packageName": "etcd",
                "version": "0.9.0"
            }
        }
    ]
}
{
    "schema": "olm.bundle",
    "name": "etcd.v0.9.2",
    "package": "etcd",
    "image": "quay.io/example/etcd-bundle:v0.9.2",
    "properties": [
        {
            "type": "olm.package",
            "value": {
                "packageName": "etcd",
                "version": "0.9.2"
            }
        },
        {
            "type": "olm.gvk",
            "value": {
                "group": "etcd.database.coreos.com",
                "kind": "EtcdCluster",
                "version": "v1beta2"
            }
        }
    ],
    "relatedImages": [
        {
            "name": "bundle",
            "image": "quay.io/example/etcd-bundle:v0.9.2"
        },
        {
            "name": "operator",
            "image": "quay.io/example/etcd:v0.9.2"
        }
    ]
}
{
    "package": "etcd",
    "schema": "example.note",
    "text": "first note, a long sentence that will be folded by the YAML writer at eighty columns"
}
{
    "alpha": "a<b",
    "schema": "example.global",
    "zeta": 1
}
)");
  }

  TEST_CASE("writes the worked example as YAML") {
    CHECK(written(etcd_example(), Format::yaml) == R"(---
defaultChannel: stable
description: |
  Etcd operator.
  Manages <etcd> clusters & backups.
icon:
  base64data: PHN2Zz48L3N2Zz4=
  mediatype: image/svg+xml
name: etcd
schema: olm.package
---
entries:
- name: etcd.v0.9.0
name: alpha
package: etcd
schema: olm.channel
---
entries:
- name: etcd.v0.9.2
  replaces: etcd.v0.9.0
  skipRange: '>=0.9.0 <0.9.2'
- name: etcd.v0.9.0
name: stable
package: etcd
schema: olm.channel
---
image: quay.io/example/etcd-bundle:v0.9.0
name: etcd.v0.9.0
package: etcd
properties:
- type: olm.package
  value:
    packageName: etcd
    version: 0.9.0
schema: olm.bundle
---
image: quay.io/example/etcd-bundle:v0.9.2
name: etcd.v0.9.2
package: etcd
properties:
- type: olm.package
  value:
    packageName: etcd
    version: 0.9.2
- type: olm.gvk
  value:
    group: etcd.database.coreos.com
    kind: EtcdCluster
    version: v1beta2
relatedImages:
- image: quay.io/example/etcd-bundle:v0.9.2
  name: bundle
- image: quay.io/example/etcd:v0.9.2
  name: operator
schema: olm.bundle
---
package: etcd
schema: example.note
text: first note, a long sentence that will be folded by the YAML writer at eighty
  columns
---
alpha: a<b
schema: example.global
zeta: 1
)");
  }

  TEST_CASE("writes nothing for an empty config") {
    CHECK(written(DeclarativeConfig{}, Format::json).empty());
    CHECK(written(DeclarativeConfig{}, Format::yaml).empty());
  }

  TEST_CASE("orders objects by package, then kind, then name, and keeps input order of ties") {
    DeclarativeConfig cfg;
    cfg.others.push_back(other("z.root", "", {{"schema", "z.root"}, {"n", 1}}));
    for (const char* name : {"b", "a"}) {
      Package p;
      p.name = name;
      cfg.packages.push_back(p);
    }
    for (const auto& [name, package, image] :
         {std::tuple{"b.v2", "b", "first"}, std::tuple{"b.v1", "b", "x"},
          std::tuple{"b.v2", "b", "second"}, std::tuple{"a.v1", "a", "y"}}) {
      Bundle b;
      b.name = name;
      b.package = package;
      b.image = image;
      cfg.bundles.push_back(b);
    }
    Channel c;
    c.name = "stable";
    c.package = "b";
    cfg.channels.push_back(c);
    c.name = "alpha";
    cfg.channels.push_back(c);
    Deprecation d;
    d.package = "b";
    cfg.deprecations.push_back(d);
    cfg.others.push_back(other("y.other", "b", {{"schema", "y.other"}, {"n", 1}}));
    cfg.others.push_back(other("x.other", "b", {{"schema", "x.other"}, {"n", 1}}));
    cfg.others.push_back(other("y.other", "b", {{"schema", "y.other"}, {"n", 2}}));
    cfg.others.push_back(other("a.root", "", {{"schema", "a.root"}}));

    CHECK(
        written(cfg, Format::json) ==
        "{\n    \"schema\": \"olm.package\",\n    \"name\": \"a\",\n    \"defaultChannel\": "
        "\"\"\n}\n"
        "{\n    \"schema\": \"olm.bundle\",\n    \"name\": \"a.v1\",\n    \"package\": \"a\",\n"
        "    \"image\": \"y\"\n}\n"
        "{\n    \"schema\": \"olm.package\",\n    \"name\": \"b\",\n    \"defaultChannel\": "
        "\"\"\n}\n"
        "{\n    \"schema\": \"olm.channel\",\n    \"name\": \"alpha\",\n    \"package\": \"b\",\n"
        "    \"entries\": null\n}\n"
        "{\n    \"schema\": \"olm.channel\",\n    \"name\": \"stable\",\n    \"package\": \"b\",\n"
        "    \"entries\": null\n}\n"
        "{\n    \"schema\": \"olm.bundle\",\n    \"name\": \"b.v1\",\n    \"package\": \"b\",\n"
        "    \"image\": \"x\"\n}\n"
        "{\n    \"schema\": \"olm.bundle\",\n    \"name\": \"b.v2\",\n    \"package\": \"b\",\n"
        "    \"image\": \"first\"\n}\n"
        "{\n    \"schema\": \"olm.bundle\",\n    \"name\": \"b.v2\",\n    \"package\": \"b\",\n"
        "    \"image\": \"second\"\n}\n"
        "{\n    \"n\": 1,\n    \"schema\": \"x.other\"\n}\n"
        "{\n    \"n\": 1,\n    \"schema\": \"y.other\"\n}\n"
        "{\n    \"n\": 2,\n    \"schema\": \"y.other\"\n}\n"
        "{\n    \"schema\": \"olm.deprecations\",\n    \"package\": \"b\",\n    \"entries\": "
        "null\n}\n"
        "{\n    \"n\": 1,\n    \"schema\": \"z.root\"\n}\n"
        "{\n    \"schema\": \"a.root\"\n}\n");
  }

  TEST_CASE("drops packages, channels, bundles and deprecations that have no package") {
    DeclarativeConfig cfg;
    cfg.packages.emplace_back();
    Channel c;
    c.name = "stable";
    cfg.channels.push_back(c);
    Bundle b;
    b.name = "orphan.v1";
    b.image = "quay.io/x/y:1";
    cfg.bundles.push_back(b);
    cfg.deprecations.emplace_back();
    cfg.others.push_back(other("kept", "", {{"schema", "kept"}}));
    CHECK(written(cfg, Format::yaml) == "---\nschema: kept\n");
  }

  TEST_CASE("writes absent channel entries as null and given empty ones as []") {
    DeclarativeConfig cfg;
    Channel absent;
    absent.name = "a";
    absent.package = "p";
    cfg.channels.push_back(absent);
    Channel empty = absent;
    empty.name = "b";
    empty.entries.emplace();
    cfg.channels.push_back(empty);
    CHECK(written(cfg, Format::json) ==
          "{\n    \"schema\": \"olm.channel\",\n    \"name\": \"a\",\n    \"package\": \"p\",\n"
          "    \"entries\": null\n}\n"
          "{\n    \"schema\": \"olm.channel\",\n    \"name\": \"b\",\n    \"package\": \"p\",\n"
          "    \"entries\": []\n}\n");
    CHECK(written(cfg, Format::yaml) ==
          "---\nentries: null\nname: a\npackage: p\nschema: olm.channel\n"
          "---\nentries: []\nname: b\npackage: p\nschema: olm.channel\n");
  }

  TEST_CASE("writes every channel entry field in its own order and omits empty ones") {
    DeclarativeConfig cfg;
    Channel c;
    c.name = "stable";
    c.package = "p";
    c.entries = std::vector<ChannelEntry>{entry("p.v3", "p.v2", {"p.v1", "p.v0"}, "<3.0.0")};
    c.properties = {prop("custom", {{"b", 1}, {"a", Json::array()}})};
    cfg.channels.push_back(c);
    CHECK(written(cfg, Format::json) == R"({
    "schema": "olm.channel",
    "name": "stable",
    "package": "p",
    "entries": [
        {
            "name": "p.v3",
            "replaces": "p.v2",
            "skips": [
                "p.v1",
                "p.v0"
            ],
            "skipRange": "<3.0.0"
        }
    ],
    "properties": [
        {
            "type": "custom",
            "value": {
                "a": [],
                "b": 1
            }
        }
    ]
}
)");
    CHECK(written(cfg, Format::yaml) == R"(---
entries:
- name: p.v3
  replaces: p.v2
  skipRange: <3.0.0
  skips:
  - p.v1
  - p.v0
name: stable
package: p
properties:
- type: custom
  value:
    a: []
    b: 1
schema: olm.channel
)");
  }

  TEST_CASE("writes an icon without data as null and empty data as an empty string") {
    DeclarativeConfig cfg;
    Package p;
    p.name = "p";
    p.default_channel = "stable";
    p.icon = Icon{std::nullopt, "image/png"};
    p.properties = {prop("olm.maxOpenShiftVersion", "4.8")};
    cfg.packages.push_back(p);
    p.name = "q";
    p.icon = Icon{"", ""};
    p.properties.clear();
    cfg.packages.push_back(p);
    CHECK(written(cfg, Format::json) == R"({
    "schema": "olm.package",
    "name": "p",
    "defaultChannel": "stable",
    "icon": {
        "base64data": null,
        "mediatype": "image/png"
    },
    "properties": [
        {
            "type": "olm.maxOpenShiftVersion",
            "value": "4.8"
        }
    ]
}
{
    "schema": "olm.package",
    "name": "q",
    "defaultChannel": "stable",
    "icon": {
        "base64data": "",
        "mediatype": ""
    }
}
)");
    CHECK(written(cfg, Format::yaml) == R"(---
defaultChannel: stable
icon:
  base64data: null
  mediatype: image/png
name: p
properties:
- type: olm.maxOpenShiftVersion
  value: "4.8"
schema: olm.package
---
defaultChannel: stable
icon:
  base64data: ""
  mediatype: ""
name: q
schema: olm.package
)");
  }

  TEST_CASE("omits a bundle's empty name but always writes its image") {
    DeclarativeConfig cfg;
    Bundle b;
    b.package = "p";
    cfg.bundles.push_back(b);
    CHECK(written(cfg, Format::json) ==
          "{\n    \"schema\": \"olm.bundle\",\n    \"package\": \"p\",\n    \"image\": \"\"\n}\n");
    CHECK(written(cfg, Format::yaml) == "---\nimage: \"\"\npackage: p\nschema: olm.bundle\n");
  }

  TEST_CASE("writes deprecations with their references") {
    DeclarativeConfig cfg;
    Deprecation d;
    d.package = "p";
    d.entries = std::vector<DeprecationEntry>{
        {{"olm.package", ""}, "package p is end of life"},
        {{"olm.channel", "alpha"}, "use stable: alpha gets no updates"}};
    cfg.deprecations.push_back(d);
    CHECK(written(cfg, Format::json) == R"({
    "schema": "olm.deprecations",
    "package": "p",
    "entries": [
        {
            "reference": {
                "schema": "olm.package"
            },
            "message": "package p is end of life"
        },
        {
            "reference": {
                "schema": "olm.channel",
                "name": "alpha"
            },
            "message": "use stable: alpha gets no updates"
        }
    ]
}
)");
    CHECK(written(cfg, Format::yaml) == R"(---
entries:
- message: package p is end of life
  reference:
    schema: olm.package
- message: 'use stable: alpha gets no updates'
  reference:
    name: alpha
    schema: olm.channel
package: p
schema: olm.deprecations
)");
  }

  TEST_CASE("writes property values and other objects as stored, numbers as Go does") {
    DeclarativeConfig cfg;
    Bundle b;
    b.name = "p.v1";
    b.package = "p";
    b.image = "img";
    Json value = {{"big", 1e21}, {"int", 2.0}, {"small", 1e-7}, {"text", "<b>"}};
    b.properties = {prop("custom", value)};
    cfg.bundles.push_back(b);
    CHECK(written(cfg, Format::json) == R"({
    "schema": "olm.bundle",
    "name": "p.v1",
    "package": "p",
    "image": "img",
    "properties": [
        {
            "type": "custom",
            "value": {
                "big": 1e+21,
                "int": 2,
                "small": 1e-7,
                "text": "<b>"
            }
        }
    ]
}
)");
    CHECK(written(cfg, Format::yaml) == R"(---
image: img
name: p.v1
package: p
properties:
- type: custom
  value:
    big: 1e+21
    int: 2
    small: 1e-07
    text: <b>
schema: olm.bundle
)");
  }
}

namespace {

// The catalog YAML written for a fuzz finding's input, and the YAML written after loading
// that output again.
struct Rewrite {
  std::string first;
  std::string second;
};

DeclarativeConfig loaded_yaml(const std::string& text) {
  auto docs = decode_stream(text, "catalog.yaml");
  REQUIRE(docs.has_value());
  DeclarativeConfig cfg;
  REQUIRE(add_documents(std::move(*docs), "catalog.yaml", cfg).has_value());
  return cfg;
}

Rewrite rewritten_fuzz_input(const std::string& name) {
  std::ifstream file(std::string(OPM_TEST_DATA_DIR) + "/fuzz/catalog/" + name);
  REQUIRE(file);
  std::stringstream input;
  input << file.rdbuf();
  Rewrite out;
  out.first = written(loaded_yaml(input.str()), Format::yaml);
  out.second = written(loaded_yaml(out.first), Format::yaml);
  return out;
}

} // namespace

TEST_CASE("a catalog with a next-line character in a key writes the same YAML when read back") {
  // Found by fuzz/catalog_fuzz.cpp: the key was written with the character folded into a
  // space, so it read back as another key and sorted elsewhere.
  auto rewrite = rewritten_fuzz_input("key_with_next_line.yaml");
  CHECK(rewrite.first.find("\\NSt1local") != std::string::npos);
  CHECK(rewrite.second == rewrite.first);
}

TEST_CASE("a catalog with a \"<<\" key writes YAML that reads back as the same catalog") {
  // Found by fuzz/catalog_fuzz.cpp: a tagged "<<" key is a string, but written plain it read
  // back as a merge key, and the second load failed.
  auto rewrite = rewritten_fuzz_input("tagged_merge_key.yaml");
  CHECK(rewrite.first.find("\n\"<<\": 0}\n") != std::string::npos);
  CHECK(rewrite.second == rewrite.first);
}
