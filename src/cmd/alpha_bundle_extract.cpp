// `opm alpha bundle extract`: what OLM's bundle unpack jobs run inside a bundle image, to
// write the bundle into the ConfigMap made for it.
#include "cmd/alpha_bundle.hpp"
#include "cmd/registry_options.hpp"
#include "extract/configmap.hpp"
#include "extract/kube_access.hpp"
#include "registry/curl_transport.hpp"
#include "registry/pull_support.hpp"
#include "registry/tls.hpp"
#include "util/fs.hpp"
#include "util/interrupt.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>

namespace opm::cmd::alpha_bundle {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_service_account_dir = "/var/run/secrets/kubernetes.io/serviceaccount";

struct ExtractFlags {
  bool debug = false;
  std::string kubeconfig;
  extract::ExtractRequest request;
};

// client.NewKubeClient: $KUBECONFIG, then --kubeconfig, else the pod's service account.
Result<extract::KubeAccess> kube_access(Context& ctx, std::string kubeconfig) {
  if (auto overridden = ctx.env.get("KUBECONFIG"); overridden && !overridden->empty()) {
    kubeconfig = *overridden;
  }
  Result<extract::KubeAccess> access;
  if (!kubeconfig.empty()) {
    ctx.err << util::logrus_line(
        "info", fmt::format("Loading kube client config from path {}", util::go_quote(kubeconfig)),
        ctx.err_is_tty);
    access = extract::from_kubeconfig(kubeconfig);
  } else {
    ctx.err << util::logrus_line("info", "Using in-cluster kube client config", ctx.err_is_tty);
    access = extract::in_cluster(ctx.env.vars, k_service_account_dir);
  }
  if (!access) {
    return util::fail(Errc::invalid,
                      "Cannot load config for REST client: " + access.error().message());
  }
  if (!access->client_cert.empty() || !access->client_key.empty()) {
    return util::fail(Errc::invalid, "Cannot load config for REST client: client certificate "
                                     "authentication is not supported; use a token");
  }
  return access;
}

Result<void> run_extract(Context& ctx, const ExtractFlags& f) {
  auto access = kube_access(ctx, f.kubeconfig);
  if (!access) {
    // Upstream ends here with logrus.Fatalf.
    return util::fail(Errc::invalid, "cluster config failed: " + access.error().message());
  }
  registry::Options options = registry_options(ctx);
  options.log = stderr_log(ctx, f.debug || ctx.global.debug ? registry::LogLevel::debug
                                                            : registry::LogLevel::warn);
  util::InterruptScope interrupts;
  std::optional<util::TempTree> ca_dir;
  if (!access->ca_pem.empty()) {
    ca_dir.emplace(OPM_TRY(registry::make_temp_dir(options, "opm-kube-ca-", "CA directory")));
    options.ca_file = (ca_dir->path() / "ca.crt").string();
    OPM_TRY(util::write_file_atomic(options.ca_file, access->ca_pem));
  }
  bool insecure = access->insecure;
  registry::CurlTransport transport(options, [&options, insecure](const std::string& host) {
    auto tls = registry::make_tls_config(options, host, insecure);
    return tls ? *tls : std::make_shared<const registry::TlsConfig>();
  });
  extract::HttpKubeApi api(transport, *access);
  extract::ExtractRequest request = f.request;
  request.source_image = ctx.env.get("CONTAINER_IMAGE").value_or("");
  if (request.configmap.empty()) {
    return util::fail(Errc::usage,
                      "error loading manifests from directory: resource name may not be empty");
  }
  auto populated = extract::populate_configmap(
      request, api,
      [&ctx](std::string_view level, const std::string& message,
             const std::vector<util::LogField>& fields) {
        ctx.err << util::logrus_line(level, message, ctx.err_is_tty, fields);
      });
  if (!populated) {
    return util::fail(Errc::usage,
                      "error loading manifests from directory: " + populated.error().message());
  }
  return {};
}

} // namespace

void add_extract(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<ExtractFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = "extract",
                           .short_text = "Extracts the data in a bundle directory via ConfigMap",
                           .long_text = "Extract takes as input a directory containing manifests "
                                        "and writes the per file contents to a ConfigMap",
                           .args = Args::none()});
  extract::ExtractRequest& r = flags->request;
  r.ns = "openshift-operator-lifecycle-manager";
  sub->add_flag("--debug", flags->debug, "enable debug logging");
  sub->add_option("-k,--kubeconfig", flags->kubeconfig, "absolute path to kubeconfig file");
  sub->add_option("-m,--manifestsdir", r.bundle_dir, "path to directory containing manifests");
  sub->add_option("-c,--configmapname", r.configmap, "name of configmap to write bundle data");
  sub->add_option("-n,--namespace", r.ns, "namespace to write configmap data");
  sub->add_option("-l,--datalimit", r.data_limit, "maximum limit in bytes for total bundle data");
  sub->add_flag("-z,--gzip", r.gzip, "enable gzip compression of configmap data");
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.run = [&ctx, flags]() -> Result<void> { return run_extract(ctx, *flags); };
  });
}

} // namespace opm::cmd::alpha_bundle
