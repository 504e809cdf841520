#pragma once

#include "serve/backend.hpp"
#include "serve/health.grpc.pb.h"
#include "serve/registry.grpc.pb.h"

// The gRPC services `opm serve` registers: api.Registry over a Backend, and the health check.
namespace opm::serve {

// The rpcs answering one bundle send its stored wire bytes without copying or encoding.
using RegistryBase = api::Registry::WithRawCallbackMethod_GetBundle<
    api::Registry::WithRawCallbackMethod_GetBundleForChannel<
        api::Registry::WithRawCallbackMethod_GetBundleThatReplaces<
            api::Registry::WithRawCallbackMethod_GetDefaultBundleThatProvides<
                api::Registry::Service>>>>;

class RegistryService final : public RegistryBase {
public:
  explicit RegistryService(const Backend& backend) : m_backend(backend) {}

  grpc::Status ListPackages(grpc::ServerContext* ctx, const api::ListPackageRequest* req,
                            grpc::ServerWriter<api::PackageName>* writer) override;
  grpc::Status GetPackage(grpc::ServerContext* ctx, const api::GetPackageRequest* req,
                          api::Package* out) override;
  grpc::ServerUnaryReactor* GetBundle(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* req,
                                      grpc::ByteBuffer* out) override;
  grpc::ServerUnaryReactor* GetBundleForChannel(grpc::CallbackServerContext* ctx,
                                                const grpc::ByteBuffer* req,
                                                grpc::ByteBuffer* out) override;
  grpc::Status GetChannelEntriesThatReplace(grpc::ServerContext* ctx,
                                            const api::GetAllReplacementsRequest* req,
                                            grpc::ServerWriter<api::ChannelEntry>* writer) override;
  grpc::ServerUnaryReactor* GetBundleThatReplaces(grpc::CallbackServerContext* ctx,
                                                  const grpc::ByteBuffer* req,
                                                  grpc::ByteBuffer* out) override;
  grpc::Status GetChannelEntriesThatProvide(grpc::ServerContext* ctx,
                                            const api::GetAllProvidersRequest* req,
                                            grpc::ServerWriter<api::ChannelEntry>* writer) override;
  grpc::Status
  GetLatestChannelEntriesThatProvide(grpc::ServerContext* ctx,
                                     const api::GetLatestProvidersRequest* req,
                                     grpc::ServerWriter<api::ChannelEntry>* writer) override;
  grpc::ServerUnaryReactor* GetDefaultBundleThatProvides(grpc::CallbackServerContext* ctx,
                                                         const grpc::ByteBuffer* req,
                                                         grpc::ByteBuffer* out) override;
  grpc::Status ListBundles(grpc::ServerContext* ctx, const api::ListBundlesRequest* req,
                           grpc::ServerWriter<api::Bundle>* writer) override;

private:
  const Backend& m_backend;
};

// Every service name is SERVING: the port opens only once the catalog is loaded.
class HealthService final : public grpc::health::v1::Health::Service {
public:
  grpc::Status Check(grpc::ServerContext* ctx, const grpc::health::v1::HealthCheckRequest* req,
                     grpc::health::v1::HealthCheckResponse* out) override;
};

// Calls to methods no service implements: UNIMPLEMENTED with grpc-go's texts,
// "unknown method <M> for service <S>" or "unknown service <S>".
class UnknownMethods final : public grpc::CallbackGenericService {
public:
  grpc::ServerGenericBidiReactor* CreateReactor(grpc::GenericCallbackServerContext* ctx) override;
};

} // namespace opm::serve
