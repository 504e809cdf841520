#pragma once

#include "serve/backend.hpp"
#include "serve/health.grpc.pb.h"
#include "serve/registry.grpc.pb.h"
#include "serve/store.hpp"

#include <string>
#include <vector>

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

inline constexpr std::string_view k_experimental_service = "api.ExperimentalRegistry";

// Latest's api.ExperimentalRegistry: the stored objects of other schemas, as
// google.protobuf.Struct messages, for callers that acknowledge the rpc is experimental.
class ExperimentalService final
    : public api::ExperimentalRegistry::WithRawCallbackMethod_ExperimentalListPackageCustomSchemas<
          api::ExperimentalRegistry::Service> {
public:
  explicit ExperimentalService(const Store& store) : m_store(store) {}

  grpc::ServerWriteReactor<grpc::ByteBuffer>*
  ExperimentalListPackageCustomSchemas(grpc::CallbackServerContext* ctx,
                                       const grpc::ByteBuffer* req) override;

private:
  const Store& m_store;
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
  // A service registered besides api.Registry, health and reflection.
  void add_known_service(std::string_view name) { m_extra.emplace_back(name); }

private:
  std::vector<std::string> m_extra;
};

} // namespace opm::serve
