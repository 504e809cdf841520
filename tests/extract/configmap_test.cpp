#include "extract/configmap.hpp"
#include "extract/kube_access.hpp"
#include "support/temp_dir.hpp"

#include <doctest/doctest.h>

using namespace opm;
using opm::test::TempDir;

TEST_CASE("file names become ConfigMap keys with every other character as '-'") {
  CHECK(extract::configmap_key("csv.yaml") == "csv.yaml");
  CHECK(extract::configmap_key("my svc+v1.yaml") == "my-svc-v1.yaml");
  CHECK(extract::configmap_key("A_b-9.json") == "A_b-9.json");
}

TEST_CASE("a kubeconfig's current context gives the server, token and CA") {
  TempDir dir;
  dir.write("ca.pem", "PEM");
  dir.write("token", "abc\n");
  auto path = dir.write("config", "current-context: c\ncontexts:\n- name: c\n  context: "
                                  "{cluster: k, user: u}\n- name: d\n  context: {cluster: x}\n"
                                  "clusters:\n- name: k\n  cluster: {server: "
                                  "\"https://k:6443\", certificate-authority: ca.pem}\nusers:\n"
                                  "- name: u\n  user: {tokenFile: token}\n");
  auto access = extract::from_kubeconfig(path);
  REQUIRE(access);
  CHECK(access->server == "https://k:6443");
  CHECK(access->ca_pem == "PEM");
  CHECK(access->token == "abc");
  CHECK_FALSE(access->insecure);

  auto none = extract::from_kubeconfig(dir.write("empty", "clusters: []\n"));
  REQUIRE_FALSE(none);
  CHECK(none.error().message() ==
        "invalid configuration: " + (dir.path() / "empty").string() + ": no current context \"\"");
}

TEST_CASE("in a pod the service account gives the token; outside one the error says why") {
  TempDir dir;
  dir.write("sa/token", "t0k\n");
  auto access = extract::in_cluster(
      {{"KUBERNETES_SERVICE_HOST", "fd00::1"}, {"KUBERNETES_SERVICE_PORT", "443"}},
      dir.path() / "sa");
  REQUIRE(access);
  CHECK(access->server == "https://[fd00::1]:443");
  CHECK(access->token == "t0k");
  auto outside = extract::in_cluster({}, dir.path() / "sa");
  REQUIRE_FALSE(outside);
  CHECK(outside.error().message() ==
        "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and "
        "KUBERNETES_SERVICE_PORT must be defined");
}
