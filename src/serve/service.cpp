#include "serve/service.hpp"

#include "serve/request.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <memory>
#include <optional>

namespace opm::serve {

namespace {

// A request's bytes in one piece.
std::string flatten(const grpc::ByteBuffer& raw) {
  std::string bytes;
  std::vector<grpc::Slice> slices;
  if (raw.Dump(&slices).ok()) {
    for (const auto& slice : slices) {
      bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
    }
  }
  return bytes;
}

// grpc-go's answer to a request that does not decode.
std::optional<grpc::Status> refusal(const grpc::ByteBuffer& raw, google::protobuf::Message& out,
                                    CallShape shape) {
  if (auto why = decode_request(flatten(raw), out, shape)) {
    return grpc::Status(grpc::StatusCode::INTERNAL, *why);
  }
  return std::nullopt;
}

// Every store error reaches the client as UNKNOWN with the store's message, as a plain Go
// error does through grpc-go.
grpc::Status failure(const Error& e) { return {grpc::StatusCode::UNKNOWN, e.message()}; }

grpc::ServerUnaryReactor* finish(grpc::CallbackServerContext* ctx, const grpc::Status& status) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  reactor->Finish(status);
  return reactor;
}

// Answers with the bundle's wire bytes: stored ones are sent without a copy (they live as
// long as the server).
grpc::ServerUnaryReactor* send_bundle(grpc::CallbackServerContext* ctx,
                                      const Result<BundleBytes>& bundle, grpc::ByteBuffer* out) {
  if (!bundle) {
    return finish(ctx, failure(bundle.error()));
  }
  if (const auto* stored = std::get_if<StoredPieces>(&*bundle)) {
    std::vector<grpc::Slice> slices;
    slices.reserve(stored->size());
    for (std::string_view piece : *stored) {
      slices.emplace_back(piece.data(), piece.size(), grpc::Slice::STATIC_SLICE);
    }
    *out = grpc::ByteBuffer(slices.data(), slices.size());
  } else {
    const auto& made = std::get<std::string>(*bundle);
    grpc::Slice slice(made.data(), made.size());
    *out = grpc::ByteBuffer(&slice, 1);
  }
  return finish(ctx, grpc::Status::OK);
}

// How the i-th message of a streamed answer is written: the first goes out at once with the
// headers; the rest are only queued, and leave with the last one and the status, so a stream
// costs two socket writes instead of one a message. (A queued first message would hold the
// headers, and so itself, back for good.)
grpc::WriteOptions stream_write(std::size_t i) {
  return i == 0 ? grpc::WriteOptions() : grpc::WriteOptions().set_buffer_hint();
}

// Where a stream's messages come from: the next one encoded, or nothing after the last.
using MessageSource = std::function<std::optional<grpc::ByteBuffer>()>;

// Streams the messages of a source, then the status; each message is made when the one
// before it has been handed to the transport. Deletes itself when the call is over.
class MessageStream final : public grpc::ServerWriteReactor<grpc::ByteBuffer> {
public:
  MessageStream(MessageSource source, grpc::Status status)
      : m_source(std::move(source)), m_status(std::move(status)) {
    m_ahead = m_source();
    next();
  }
  void OnWriteDone(bool ok) override {
    if (ok) {
      next();
    } else {
      Finish(grpc::Status::OK); // the client is gone; the call still has to end
    }
  }
  void OnDone() override { delete this; }

private:
  // One message is fetched ahead, so the last is known to be the last and leaves with the
  // status, in one batch.
  void next() {
    if (!m_ahead) {
      Finish(m_status);
      return;
    }
    m_current = std::move(*m_ahead);
    m_ahead = m_source();
    if (m_ahead) {
      StartWrite(&m_current, stream_write(m_written++));
    } else {
      StartWriteAndFinish(&m_current, grpc::WriteOptions(), m_status);
    }
  }

  MessageSource m_source;
  grpc::Status m_status;
  grpc::ByteBuffer m_current;
  std::optional<grpc::ByteBuffer> m_ahead;
  std::size_t m_written = 0;
};

MessageSource each_of(std::vector<grpc::ByteBuffer> messages) {
  return [messages = std::move(messages),
          i = std::size_t{0}]() mutable -> std::optional<grpc::ByteBuffer> {
    if (i == messages.size()) {
      return std::nullopt;
    }
    return std::move(messages[i++]);
  };
}

grpc::ByteBuffer encode(const google::protobuf::MessageLite& msg) {
  grpc::Slice slice(msg.SerializeAsString());
  return {&slice, 1};
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* fail_stream(const grpc::Status& status) {
  return new MessageStream(each_of({}), status);
}

template <typename Message>
grpc::ServerWriteReactor<grpc::ByteBuffer>* stream(const std::vector<Message>& messages) {
  std::vector<grpc::ByteBuffer> encoded;
  encoded.reserve(messages.size());
  for (const auto& msg : messages) {
    encoded.push_back(encode(msg));
  }
  return new MessageStream(each_of(std::move(encoded)), grpc::Status::OK);
}

template <typename Message>
grpc::ServerWriteReactor<grpc::ByteBuffer>* stream(const Result<std::vector<Message>>& messages) {
  return messages ? stream(*messages) : fail_stream(failure(messages.error()));
}

} // namespace

grpc::ServerWriteReactor<grpc::ByteBuffer>*
RegistryService::ListPackages(grpc::CallbackServerContext* /*ctx*/, const grpc::ByteBuffer* req) {
  if (api::ListPackageRequest r; auto refused = refusal(*req, r, CallShape::server_streaming)) {
    return fail_stream(*refused);
  }
  auto names = m_backend.package_names();
  if (!names) {
    return fail_stream(failure(names.error()));
  }
  std::vector<api::PackageName> messages(names->size());
  for (std::size_t i = 0; i < names->size(); ++i) {
    messages[i].set_name(std::move((*names)[i]));
  }
  return stream(messages);
}

grpc::ServerUnaryReactor* RegistryService::GetPackage(grpc::CallbackServerContext* ctx,
                                                      const grpc::ByteBuffer* req,
                                                      grpc::ByteBuffer* out) {
  api::GetPackageRequest r;
  if (auto refused = refusal(*req, r, CallShape::unary)) {
    return finish(ctx, *refused);
  }
  auto pkg = m_backend.package(r.name());
  if (!pkg) {
    return finish(ctx, failure(pkg.error()));
  }
  *out = encode(*pkg);
  return finish(ctx, grpc::Status::OK);
}

grpc::ServerUnaryReactor* RegistryService::GetBundle(grpc::CallbackServerContext* ctx,
                                                     const grpc::ByteBuffer* req,
                                                     grpc::ByteBuffer* out) {
  api::GetBundleRequest r;
  if (auto refused = refusal(*req, r, CallShape::unary)) {
    return finish(ctx, *refused);
  }
  return send_bundle(ctx, m_backend.bundle(r.pkgname(), r.channelname(), r.csvname()), out);
}

grpc::ServerUnaryReactor* RegistryService::GetBundleForChannel(grpc::CallbackServerContext* ctx,
                                                               const grpc::ByteBuffer* req,
                                                               grpc::ByteBuffer* out) {
  api::GetBundleInChannelRequest r;
  if (auto refused = refusal(*req, r, CallShape::unary)) {
    return finish(ctx, *refused);
  }
  return send_bundle(ctx, m_backend.bundle_for_channel(r.pkgname(), r.channelname()), out);
}

grpc::ServerWriteReactor<grpc::ByteBuffer>*
RegistryService::GetChannelEntriesThatReplace(grpc::CallbackServerContext* /*ctx*/,
                                              const grpc::ByteBuffer* req) {
  api::GetAllReplacementsRequest r;
  if (auto refused = refusal(*req, r, CallShape::server_streaming)) {
    return fail_stream(*refused);
  }
  return stream(m_backend.entries_that_replace(r.csvname()));
}

grpc::ServerUnaryReactor* RegistryService::GetBundleThatReplaces(grpc::CallbackServerContext* ctx,
                                                                 const grpc::ByteBuffer* req,
                                                                 grpc::ByteBuffer* out) {
  api::GetReplacementRequest r;
  if (auto refused = refusal(*req, r, CallShape::unary)) {
    return finish(ctx, *refused);
  }
  return send_bundle(ctx, m_backend.bundle_that_replaces(r.csvname(), r.pkgname(), r.channelname()),
                     out);
}

grpc::ServerWriteReactor<grpc::ByteBuffer>*
RegistryService::GetChannelEntriesThatProvide(grpc::CallbackServerContext* /*ctx*/,
                                              const grpc::ByteBuffer* req) {
  api::GetAllProvidersRequest r;
  if (auto refused = refusal(*req, r, CallShape::server_streaming)) {
    return fail_stream(*refused);
  }
  return stream(m_backend.entries_that_provide(r.group(), r.version(), r.kind()));
}

grpc::ServerWriteReactor<grpc::ByteBuffer>*
RegistryService::GetLatestChannelEntriesThatProvide(grpc::CallbackServerContext* /*ctx*/,
                                                    const grpc::ByteBuffer* req) {
  api::GetLatestProvidersRequest r;
  if (auto refused = refusal(*req, r, CallShape::server_streaming)) {
    return fail_stream(*refused);
  }
  return stream(m_backend.latest_entries_that_provide(r.group(), r.version(), r.kind()));
}

grpc::ServerUnaryReactor*
RegistryService::GetDefaultBundleThatProvides(grpc::CallbackServerContext* ctx,
                                              const grpc::ByteBuffer* req, grpc::ByteBuffer* out) {
  api::GetDefaultProviderRequest r;
  if (auto refused = refusal(*req, r, CallShape::unary)) {
    return finish(ctx, *refused);
  }
  return send_bundle(ctx, m_backend.default_bundle_that_provides(r.group(), r.version(), r.kind()),
                     out);
}

grpc::ServerWriteReactor<grpc::ByteBuffer>*
RegistryService::ListBundles(grpc::CallbackServerContext* /*ctx*/, const grpc::ByteBuffer* req) {
  if (api::ListBundlesRequest r; auto refused = refusal(*req, r, CallShape::server_streaming)) {
    return fail_stream(*refused);
  }
  auto listing = m_backend.list_bundles();
  if (!listing) {
    return fail_stream(failure(listing.error()));
  }
  std::shared_ptr<BundleList> list = std::move(*listing);
  auto source = [list, bytes = std::string()]() mutable -> std::optional<grpc::ByteBuffer> {
    if (!list->next(bytes)) {
      return std::nullopt;
    }
    grpc::Slice slice(bytes);
    return grpc::ByteBuffer(&slice, 1);
  };
  return new MessageStream(std::move(source), grpc::Status::OK);
}

namespace {

constexpr std::string_view k_acknowledge_header = "x-acknowledge-experimental";

// grpc-go's md.Get(...)[0] == "true".
bool acknowledged(const grpc::CallbackServerContext& ctx) {
  auto it = ctx.client_metadata().find(
      grpc::string_ref(k_acknowledge_header.data(), k_acknowledge_header.size()));
  return it != ctx.client_metadata().end() &&
         std::string_view(it->second.data(), it->second.size()) == "true";
}

} // namespace

grpc::ServerWriteReactor<grpc::ByteBuffer>*
ExperimentalService::ExperimentalListPackageCustomSchemas(grpc::CallbackServerContext* ctx,
                                                          const grpc::ByteBuffer* req) {
  api::ExperimentalListPackageCustomSchemasRequest r;
  if (auto refused = refusal(*req, r, CallShape::server_streaming)) {
    return fail_stream(*refused);
  }
  // Callers that do not know the rpc is experimental get an empty stream, not an error.
  if (!acknowledged(*ctx)) {
    return fail_stream(grpc::Status::OK);
  }
  if (r.schema().empty()) {
    return fail_stream({grpc::StatusCode::INVALID_ARGUMENT, "schema is required"});
  }
  auto files = m_store.custom_schemas(r.schema(), r.packagename());
  if (!files) {
    return fail_stream({grpc::StatusCode::INVALID_ARGUMENT, files.error().message()});
  }
  std::vector<grpc::ByteBuffer> messages;
  if (*files != nullptr) {
    for (const auto& [name, text] : **files) {
      google::protobuf::Struct object;
      if (auto parsed = google::protobuf::util::JsonStringToMessage(text, &object); !parsed.ok()) {
        return fail_stream({grpc::StatusCode::INTERNAL,
                            fmt::format("unmarshal meta JSON: {}", parsed.ToString())});
      }
      messages.push_back(encode(object));
    }
  }
  return new MessageStream(each_of(std::move(messages)), grpc::Status::OK);
}

grpc::ServerUnaryReactor* HealthService::Check(grpc::CallbackServerContext* ctx,
                                               const grpc::ByteBuffer* req, grpc::ByteBuffer* out) {
  grpc::health::v1::HealthCheckRequest r;
  if (auto refused = refusal(*req, r, CallShape::unary)) {
    return finish(ctx, *refused);
  }
  // Probes call this every few seconds for the server's life: the answer is encoded once.
  static const std::string serving = [] {
    grpc::health::v1::HealthCheckResponse answer;
    answer.set_status(grpc::health::v1::HealthCheckResponse::SERVING);
    return answer.SerializeAsString();
  }();
  grpc::Slice slice(serving.data(), serving.size(), grpc::Slice::STATIC_SLICE);
  *out = grpc::ByteBuffer(&slice, 1);
  return finish(ctx, grpc::Status::OK);
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
                                                 "grpc.reflection.v1.ServerReflection",
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
  bool known = std::ranges::find(k_known_services, service) != std::end(k_known_services) ||
               std::ranges::find(m_extra, service) != m_extra.end();
  return new RefusingReactor(known
                                 ? fmt::format("unknown method {} for service {}", method, service)
                                 : fmt::format("unknown service {}", service));
}

} // namespace opm::serve
