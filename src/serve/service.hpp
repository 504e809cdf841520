#pragma once

#include "serve/backend.hpp"
#include "serve/health.grpc.pb.h"
#include "serve/registry.grpc.pb.h"

// The gRPC services `opm serve` registers: api.Registry over a Backend, and the health check.
namespace opm::serve {

// The rpcs answering one bundle send its stored wire bytes without copying or encoding.
using RegistryBase = api::Registry::WithRawCallbackMethod_ListPackages<
    api::Registry::WithRawCallbackMethod_GetPackage<
        api::Registry::WithRawCallbackMethod_ListBundles<
            api::Registry::WithRawCallbackMethod_GetChannelEntriesThatReplace<
                api::Registry::WithRawCallbackMethod_GetChannelEntriesThatProvide<
                    api::Registry::WithRawCallbackMethod_GetLatestChannelEntriesThatProvide<
                        api::Registry::WithRawCallbackMethod_GetBundle<
                            api::Registry::WithRawCallbackMethod_GetBundleForChannel<
                                api::Registry::WithRawCallbackMethod_GetBundleThatReplaces<
                                    api::Registry::
                                        WithRawCallbackMethod_GetDefaultBundleThatProvides<
                                            api::Registry::Service>>>>>>>>>>;

class RegistryService final : public RegistryBase {
public:
  explicit RegistryService(const Backend& backend) : m_backend(backend) {}

  grpc::ServerWriteReactor<grpc::ByteBuffer>* ListPackages(grpc::CallbackServerContext* ctx,
                                                           const grpc::ByteBuffer* req) override;
  grpc::ServerUnaryReactor* GetPackage(grpc::CallbackServerContext* ctx,
                                       const grpc::ByteBuffer* req, grpc::ByteBuffer* out) override;
  grpc::ServerUnaryReactor* GetBundle(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* req,
                                      grpc::ByteBuffer* out) override;
  grpc::ServerUnaryReactor* GetBundleForChannel(grpc::CallbackServerContext* ctx,
                                                const grpc::ByteBuffer* req,
                                                grpc::ByteBuffer* out) override;
  grpc::ServerWriteReactor<grpc::ByteBuffer>*
  GetChannelEntriesThatReplace(grpc::CallbackServerContext* ctx,
                               const grpc::ByteBuffer* req) override;
  grpc::ServerUnaryReactor* GetBundleThatReplaces(grpc::CallbackServerContext* ctx,
                                                  const grpc::ByteBuffer* req,
                                                  grpc::ByteBuffer* out) override;
  grpc::ServerWriteReactor<grpc::ByteBuffer>*
  GetChannelEntriesThatProvide(grpc::CallbackServerContext* ctx,
                               const grpc::ByteBuffer* req) override;
  grpc::ServerWriteReactor<grpc::ByteBuffer>*
  GetLatestChannelEntriesThatProvide(grpc::CallbackServerContext* ctx,
                                     const grpc::ByteBuffer* req) override;
  grpc::ServerUnaryReactor* GetDefaultBundleThatProvides(grpc::CallbackServerContext* ctx,
                                                         const grpc::ByteBuffer* req,
                                                         grpc::ByteBuffer* out) override;
  grpc::ServerWriteReactor<grpc::ByteBuffer>* ListBundles(grpc::CallbackServerContext* ctx,
                                                          const grpc::ByteBuffer* req) override;

private:
  const Backend& m_backend;
};

// Every service name is SERVING: the port opens only once the catalog is loaded.
class HealthService final : public grpc::health::v1::Health::WithRawCallbackMethod_Check<
                                grpc::health::v1::Health::Service> {
public:
  grpc::ServerUnaryReactor* Check(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* req,
                                  grpc::ByteBuffer* out) override;
};

// Calls to methods no service implements: UNIMPLEMENTED with grpc-go's texts,
// "unknown method <M> for service <S>" or "unknown service <S>".
class UnknownMethods final : public grpc::CallbackGenericService {
public:
  grpc::ServerGenericBidiReactor* CreateReactor(grpc::GenericCallbackServerContext* ctx) override;
};

} // namespace opm::serve
