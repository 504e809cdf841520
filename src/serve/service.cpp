#include "serve/service.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace opm::serve {

namespace {

// Every store error reaches the client as UNKNOWN with the store's message, as a plain Go
// error does through grpc-go.
grpc::Status failure(const Error& e) { return {grpc::StatusCode::UNKNOWN, e.message()}; }

template <typename Request> bool parse_request(const grpc::ByteBuffer& raw, Request& out) {
  std::vector<grpc::Slice> slices;
  if (!raw.Dump(&slices).ok()) {
    return false;
  }
  std::string bytes;
  for (const auto& slice : slices) {
    bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
  }
  return out.ParseFromString(bytes);
}

// Answers with the bundle's wire bytes: stored ones are sent without a copy (they live as
// long as the server).
grpc::ServerUnaryReactor* send_bundle(grpc::CallbackServerContext* ctx,
                                      const Result<BundleBytes>& bundle, grpc::ByteBuffer* out) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  if (!bundle) {
    reactor->Finish(failure(bundle.error()));
    return reactor;
  }
  if (const auto* stored = std::get_if<std::string_view>(&*bundle)) {
    grpc::Slice slice(stored->data(), stored->size(), grpc::Slice::STATIC_SLICE);
    *out = grpc::ByteBuffer(&slice, 1);
  } else {
    const auto& made = std::get<std::string>(*bundle);
    grpc::Slice slice(made.data(), made.size());
    *out = grpc::ByteBuffer(&slice, 1);
  }
  reactor->Finish(grpc::Status::OK);
  return reactor;
}

grpc::ServerUnaryReactor* bad_request(grpc::CallbackServerContext* ctx) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  reactor->Finish({grpc::StatusCode::INTERNAL, "grpc: error unmarshalling request"});
  return reactor;
}

// How the i-th message of a streamed answer is written: the first goes out at once with the
// headers; the rest are only queued, and leave with the status (or when the queue fills), so
// a stream costs two socket writes instead of one a message. (A queued first message would
// hold the headers, and so itself, back for good.)
grpc::WriteOptions stream_write(std::size_t i) {
  return i == 0 ? grpc::WriteOptions() : grpc::WriteOptions().set_buffer_hint();
}

grpc::Status send_entries(const Result<std::vector<api::ChannelEntry>>& entries,
                          grpc::ServerWriter<api::ChannelEntry>* writer) {
  if (!entries) {
    return failure(entries.error());
  }
  for (std::size_t i = 0; i < entries->size(); ++i) {
    if (!writer->Write((*entries)[i], stream_write(i))) {
      break;
    }
  }
  return grpc::Status::OK;
}

} // namespace

grpc::Status RegistryService::ListPackages(grpc::ServerContext* /*ctx*/,
                                           const api::ListPackageRequest* /*req*/,
                                           grpc::ServerWriter<api::PackageName>* writer) {
  auto names = m_backend.package_names();
  if (!names) {
    return failure(names.error());
  }
  api::PackageName msg;
  for (std::size_t i = 0; i < names->size(); ++i) {
    msg.set_name((*names)[i]);
    if (!writer->Write(msg, stream_write(i))) {
      break;
    }
  }
  return grpc::Status::OK;
}

grpc::Status RegistryService::GetPackage(grpc::ServerContext* /*ctx*/,
                                         const api::GetPackageRequest* req, api::Package* out) {
  auto pkg = m_backend.package(req->name());
  if (!pkg) {
    return failure(pkg.error());
  }
  *out = std::move(*pkg);
  return grpc::Status::OK;
}

grpc::ServerUnaryReactor* RegistryService::GetBundle(grpc::CallbackServerContext* ctx,
                                                     const grpc::ByteBuffer* req,
                                                     grpc::ByteBuffer* out) {
  api::GetBundleRequest r;
  if (!parse_request(*req, r)) {
    return bad_request(ctx);
  }
  return send_bundle(ctx, m_backend.bundle(r.pkgname(), r.channelname(), r.csvname()), out);
}

grpc::ServerUnaryReactor* RegistryService::GetBundleForChannel(grpc::CallbackServerContext* ctx,
                                                               const grpc::ByteBuffer* req,
                                                               grpc::ByteBuffer* out) {
  api::GetBundleInChannelRequest r;
  if (!parse_request(*req, r)) {
    return bad_request(ctx);
  }
  return send_bundle(ctx, m_backend.bundle_for_channel(r.pkgname(), r.channelname()), out);
}

grpc::Status
RegistryService::GetChannelEntriesThatReplace(grpc::ServerContext* /*ctx*/,
                                              const api::GetAllReplacementsRequest* req,
                                              grpc::ServerWriter<api::ChannelEntry>* writer) {
  return send_entries(m_backend.entries_that_replace(req->csvname()), writer);
}

grpc::ServerUnaryReactor* RegistryService::GetBundleThatReplaces(grpc::CallbackServerContext* ctx,
                                                                 const grpc::ByteBuffer* req,
                                                                 grpc::ByteBuffer* out) {
  api::GetReplacementRequest r;
  if (!parse_request(*req, r)) {
    return bad_request(ctx);
  }
  return send_bundle(ctx, m_backend.bundle_that_replaces(r.csvname(), r.pkgname(), r.channelname()),
                     out);
}

grpc::Status
RegistryService::GetChannelEntriesThatProvide(grpc::ServerContext* /*ctx*/,
                                              const api::GetAllProvidersRequest* req,
                                              grpc::ServerWriter<api::ChannelEntry>* writer) {
  return send_entries(m_backend.entries_that_provide(req->group(), req->version(), req->kind()),
                      writer);
}

grpc::Status
RegistryService::GetLatestChannelEntriesThatProvide(grpc::ServerContext* /*ctx*/,
                                                    const api::GetLatestProvidersRequest* req,
                                                    grpc::ServerWriter<api::ChannelEntry>* writer) {
  return send_entries(
      m_backend.latest_entries_that_provide(req->group(), req->version(), req->kind()), writer);
}

grpc::ServerUnaryReactor*
RegistryService::GetDefaultBundleThatProvides(grpc::CallbackServerContext* ctx,
                                              const grpc::ByteBuffer* req, grpc::ByteBuffer* out) {
  api::GetDefaultProviderRequest r;
  if (!parse_request(*req, r)) {
    return bad_request(ctx);
  }
  return send_bundle(ctx, m_backend.default_bundle_that_provides(r.group(), r.version(), r.kind()),
                     out);
}

grpc::Status RegistryService::ListBundles(grpc::ServerContext* /*ctx*/,
                                          const api::ListBundlesRequest* /*req*/,
                                          grpc::ServerWriter<api::Bundle>* writer) {
  std::size_t sent = 0;
  auto listed = m_backend.list_bundles(
      [writer, &sent](const api::Bundle& b) { return writer->Write(b, stream_write(sent++)); });
  return listed ? grpc::Status::OK : failure(listed.error());
}

grpc::Status HealthService::Check(grpc::ServerContext* /*ctx*/,
                                  const grpc::health::v1::HealthCheckRequest* /*req*/,
                                  grpc::health::v1::HealthCheckResponse* out) {
  out->set_status(grpc::health::v1::HealthCheckResponse::SERVING);
  return grpc::Status::OK;
}

namespace {

class RefusingReactor final : public grpc::ServerGenericBidiReactor {
public:
  explicit RefusingReactor(const std::string& message) {
    Finish({grpc::StatusCode::UNIMPLEMENTED, message});
  }
  void OnDone() override { delete this; }
};

constexpr std::string_view k_known_services[] = {"api.Registry", "grpc.health.v1.Health",
                                                 "grpc.reflection.v1alpha.ServerReflection"};

} // namespace

grpc::ServerGenericBidiReactor*
UnknownMethods::CreateReactor(grpc::GenericCallbackServerContext* ctx) {
  std::string_view path = ctx->method(); // "/<service>/<method>"
  if (!path.empty() && path.front() == '/') {
    path.remove_prefix(1);
  }
  auto slash = path.rfind('/');
  std::string_view service = path.substr(0, slash);
  std::string_view method = slash == std::string_view::npos ? "" : path.substr(slash + 1);
  bool known = std::ranges::find(k_known_services, service) != std::end(k_known_services);
  return new RefusingReactor(known
                                 ? fmt::format("unknown method {} for service {}", method, service)
                                 : fmt::format("unknown service {}", service));
}

} // namespace opm::serve
