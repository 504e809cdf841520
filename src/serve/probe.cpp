#include "serve/probe.hpp"

#include "serve/health.grpc.pb.h"
#include "util/go_duration.hpp"

#include <fmt/format.h>

#include <array>
#include <fstream>
#include <grpcpp/grpcpp.h>
#include <grpcpp/security/tls_certificate_verifier.h>
#include <grpcpp/security/tls_credentials_options.h>
#include <optional>
#include <sstream>
#include <string_view>

namespace opm::serve {

namespace {

using HealthResponse = grpc::health::v1::HealthCheckResponse;
using Clock = std::chrono::system_clock;

// Go's log package with no flags: the line and a newline.
void log_line(std::ostream& err, std::string_view line) { err << line << '\n' << std::flush; }

// grpc-go dials ":port" on this host; gRPC's resolver needs a host.
std::string channel_target(const std::string& address) {
  return address.starts_with(':') ? "127.0.0.1" + address : address;
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

struct Credentials {
  std::shared_ptr<grpc::ChannelCredentials> value;
  std::string error;
};

Credentials unverified_tls(const std::string& cert, const std::string& key) {
  grpc::experimental::TlsChannelCredentialsOptions tls;
  tls.set_verify_server_certs(false);
  tls.set_check_call_host(false);
  tls.set_certificate_verifier(std::make_shared<grpc::experimental::NoOpCertificateVerifier>());
  if (!cert.empty()) {
    std::vector<grpc::experimental::IdentityKeyCertPair> pairs{{key, cert}};
    tls.set_certificate_provider(
        std::make_shared<grpc::experimental::StaticDataCertificateProvider>(pairs));
    tls.watch_identity_key_cert_pairs();
  }
  return {grpc::experimental::TlsCredentials(tls), {}};
}

Credentials tls_credentials(const ProbeOptions& o) {
  std::string cert;
  std::string key;
  if (!o.tls_client_cert.empty()) {
    auto cert_bytes = read_file(o.tls_client_cert);
    auto key_bytes = read_file(o.tls_client_key);
    if (!cert_bytes || !key_bytes) {
      return {nullptr, fmt::format("failed to load tls client cert/key pair. error=open {}: no "
                                   "such file or directory",
                                   cert_bytes ? o.tls_client_key : o.tls_client_cert)};
    }
    cert = std::move(*cert_bytes);
    key = std::move(*key_bytes);
  }
  if (o.tls_no_verify) {
    return unverified_tls(cert, key);
  }
  grpc::SslCredentialsOptions ssl;
  if (!o.tls_ca_cert.empty()) {
    auto roots = read_file(o.tls_ca_cert);
    if (!roots) {
      return {nullptr, fmt::format("failed to load root CA certificates from file ({}) "
                                   "error=open {}: no such file or directory",
                                   o.tls_ca_cert, o.tls_ca_cert)};
    }
    if (roots->find("-----BEGIN CERTIFICATE-----") == std::string::npos) {
      return {nullptr, fmt::format("no root CA certs parsed from file {}", o.tls_ca_cert)};
    }
    ssl.pem_root_certs = std::move(*roots);
  }
  ssl.pem_cert_chain = cert;
  ssl.pem_private_key = key;
  return {grpc::SslCredentials(ssl), {}};
}

std::string_view code_name(grpc::StatusCode code) {
  static constexpr std::array<std::string_view, 17> k_names{
      "OK",       "Canceled",       "Unknown",          "InvalidArgument",   "DeadlineExceeded",
      "NotFound", "AlreadyExists",  "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
      "Aborted",  "OutOfRange",     "Unimplemented",    "Internal",          "Unavailable",
      "DataLoss", "Unauthenticated"};
  auto index = static_cast<std::size_t>(code);
  return index < k_names.size() ? k_names[index] : "Unknown";
}

int rpc_failure(const grpc::Status& status, const ProbeOptions& o, std::ostream& err) {
  if (status.error_code() == grpc::StatusCode::UNIMPLEMENTED) {
    log_line(err, "error: this server does not implement the grpc health protocol "
                  "(grpc.health.v1.Health)");
  } else if (status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    log_line(err, fmt::format("timeout: health rpc did not complete within {}",
                              util::format_go_duration(o.rpc_timeout)));
  } else {
    log_line(err, fmt::format("error: health rpc failed: rpc error: code = {} desc = {}",
                              code_name(status.error_code()), status.error_message()));
  }
  return probe_rpc_failure;
}

std::shared_ptr<grpc::Channel> open_channel(const ProbeOptions& o,
                                            std::shared_ptr<grpc::ChannelCredentials> creds) {
  grpc::ChannelArguments args;
  args.SetUserAgentPrefix(o.user_agent);
  if (!o.tls_server_name.empty()) {
    args.SetSslTargetNameOverride(o.tls_server_name);
  }
  if (o.gzip) {
    args.SetCompressionAlgorithm(GRPC_COMPRESS_GZIP);
  }
  return grpc::CreateCustomChannel(channel_target(o.address), std::move(creds), args);
}

int check(const std::shared_ptr<grpc::Channel>& channel, const ProbeOptions& o, std::ostream& err) {
  grpc::ClientContext context;
  auto rpc_start = Clock::now();
  context.set_deadline(rpc_start + o.rpc_timeout);
  for (const auto& [key, value] : o.headers) {
    context.AddMetadata(key, value);
  }
  grpc::health::v1::HealthCheckRequest request;
  request.set_service(o.service);
  HealthResponse response;
  auto stub = grpc::health::v1::Health::NewStub(channel);
  grpc::Status status = stub->Check(&context, request, &response);
  if (!status.ok()) {
    return rpc_failure(status, o, err);
  }
  std::string name = HealthResponse::ServingStatus_Name(response.status());
  if (response.status() != HealthResponse::SERVING) {
    log_line(err, fmt::format("service unhealthy (responded with \"{}\")", name));
    return probe_unhealthy;
  }
  if (o.verbose) {
    log_line(err, fmt::format("time elapsed: rpc={}",
                              util::format_go_duration(Clock::now() - rpc_start)));
  }
  log_line(err, fmt::format("status: {}", name));
  return probe_serving;
}

} // namespace

int probe(const ProbeOptions& o, std::ostream& err) {
  std::shared_ptr<grpc::ChannelCredentials> creds = grpc::InsecureChannelCredentials();
  if (o.tls) {
    auto built = tls_credentials(o);
    if (!built.value) {
      log_line(err, fmt::format("failed to initialize tls credentials. error={}", built.error));
      return probe_invalid_arguments;
    }
    creds = std::move(built.value);
  }
  if (o.verbose) {
    log_line(err, "establishing connection");
  }
  auto channel = open_channel(o, std::move(creds));
  auto connect_start = Clock::now();
  if (!channel->WaitForConnected(connect_start + o.connect_timeout)) {
    log_line(err, fmt::format("timeout: failed to connect service \"{}\" within {}", o.address,
                              util::format_go_duration(o.connect_timeout)));
    return probe_connection_failure;
  }
  if (o.verbose) {
    log_line(err, fmt::format("connection established (took {})",
                              util::format_go_duration(Clock::now() - connect_start)));
  }
  return check(channel, o, err);
}

} // namespace opm::serve

namespace {

const opm::serve::ProbeEntry k_probe_entry{
    .probe = &opm::serve::probe,
};

} // namespace

// The probe's entry point (see serve/probe.hpp).
extern "C" const opm::serve::ProbeEntry* opm_serve_probe_entry() { return &k_probe_entry; }
