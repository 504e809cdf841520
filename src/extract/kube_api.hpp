#pragma once

#include "extract/kube_access.hpp"
#include "json/value.hpp"
#include "registry/http.hpp"
#include "util/error.hpp"

#include <string>

// The two ConfigMap calls `opm alpha bundle extract` makes to the Kubernetes API server.
namespace opm::extract {

class KubeApi {
public:
  virtual ~KubeApi() = default;
  // GET /api/v1/namespaces/<ns>/configmaps/<name>
  virtual Result<Json> get_configmap(const std::string& ns, const std::string& name) = 0;
  // PUT of the whole object, which carries the resourceVersion it was read at.
  virtual Result<void> update_configmap(const std::string& ns, const std::string& name,
                                        const Json& configmap) = 0;
};

// Over HTTP(S). Errors read as client-go's: the server's Status message
// (`configmaps "x" not found`), else the status text.
class HttpKubeApi final : public KubeApi {
public:
  HttpKubeApi(registry::Transport& transport, KubeAccess access)
      : m_transport(transport), m_access(std::move(access)) {}

  Result<Json> get_configmap(const std::string& ns, const std::string& name) override;
  Result<void> update_configmap(const std::string& ns, const std::string& name,
                                const Json& configmap) override;

private:
  Result<Json> call(std::string method, const std::string& ns, const std::string& name,
                    std::string body);
  registry::Transport& m_transport;
  KubeAccess m_access;
};

} // namespace opm::extract
