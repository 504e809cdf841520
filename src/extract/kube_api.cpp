#include "extract/kube_api.hpp"

#include "json/parse.hpp"
#include "json/writer.hpp"
#include "util/base64.hpp"

#include <fmt/format.h>

namespace opm::extract {

namespace {

std::string status_text(long status) {
  switch (status) {
  case 401:
    return "Unauthorized";
  case 403:
    return "Forbidden";
  case 404:
    return "the server could not find the requested resource";
  case 409:
    return "the server reported a conflict";
  default:
    return fmt::format("the server responded with the status code {}", status);
  }
}

} // namespace

Result<Json> HttpKubeApi::call(std::string method, const std::string& ns, const std::string& name,
                               std::string body) {
  std::string server = m_access.server;
  while (!server.empty() && server.back() == '/') {
    server.pop_back();
  }
  registry::Request request;
  request.method = std::move(method);
  request.url = fmt::format("{}/api/v1/namespaces/{}/configmaps/{}", server,
                            registry::url_encode(ns), registry::url_encode(name));
  request.set_header("Accept", "application/json");
  request.set_header("User-Agent", "opm");
  if (!m_access.token.empty()) {
    request.set_header("Authorization", "Bearer " + m_access.token);
  } else if (!m_access.username.empty()) {
    request.set_header("Authorization",
                       "Basic " + util::base64_encode(m_access.username + ":" + m_access.password));
  }
  if (!body.empty()) {
    request.set_header("Content-Type", "application/json");
    request.body = std::move(body);
  }
  registry::Response response = m_transport.send(request);
  if (response.broken()) {
    return util::fail(Errc::network,
                      fmt::format("{} {}: {}", request.method, registry::redact_url(request.url),
                                  response.transport_error));
  }
  Json answer = json::parse_text(response.body, false);
  if (response.status / 100 != 2) {
    bool status = !answer.is_discarded() && answer.is_object() && answer.contains("kind") &&
                  answer["kind"] == "Status" && answer.contains("message") &&
                  answer["message"].is_string();
    if (status) {
      return util::fail(Errc::network, answer["message"].get<std::string>());
    }
    return util::fail(Errc::network, status_text(response.status));
  }
  if (answer.is_discarded() || !answer.is_object()) {
    return util::fail(Errc::network, fmt::format("{} {}: the answer is not a JSON object",
                                                 request.method, request.url));
  }
  return answer;
}

Result<Json> HttpKubeApi::get_configmap(const std::string& ns, const std::string& name) {
  return call("GET", ns, name, "");
}

Result<void> HttpKubeApi::update_configmap(const std::string& ns, const std::string& name,
                                           const Json& configmap) {
  OPM_TRY(call("PUT", ns, name, json::to_text(configmap)));
  return {};
}

} // namespace opm::extract
