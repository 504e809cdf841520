#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <map>
#include <string>

// Where the Kubernetes API server is and how to authenticate to it: from a kubeconfig file
// (its current context) or from the service account a pod runs as, as client-go's
// clientcmd.BuildConfigFromFlags and rest.InClusterConfig find them.
namespace opm::extract {

struct KubeAccess {
  std::string server;      // https://host:port
  std::string token;       // bearer token; empty for none
  std::string ca_pem;      // the roots the server's certificate must chain to; empty: system
  bool insecure = false;   // insecure-skip-tls-verify
  std::string client_cert; // PEM: a client certificate and its key
  std::string client_key;
  std::string username; // basic authentication
  std::string password;
};

Result<KubeAccess> from_kubeconfig(const std::filesystem::path& path);

// The in-cluster configuration: KUBERNETES_SERVICE_HOST and _PORT from `env`, the token
// and CA in `service_account_dir` (/var/run/secrets/kubernetes.io/serviceaccount in a pod).
Result<KubeAccess> in_cluster(const std::map<std::string, std::string>& env,
                              const std::filesystem::path& service_account_dir);

} // namespace opm::extract
