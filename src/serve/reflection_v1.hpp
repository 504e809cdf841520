#pragma once

#include "serve/reflection_v1.grpc.pb.h"

#include <string>
#include <vector>

// grpc.reflection.v1, which latest upstream serves beside v1alpha (Debian's gRPC library has
// v1alpha only): the service names it is given, and the descriptors of the files compiled into
// this program.
namespace opm::serve {

class ReflectionV1Service final : public grpc::reflection::v1::ServerReflection::Service {
public:
  // `services`: every service the server answers, in the order to list them. Set before the
  // server starts.
  void set_services(std::vector<std::string> services) { m_services = std::move(services); }

  grpc::Status ServerReflectionInfo(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<grpc::reflection::v1::ServerReflectionResponse,
                               grpc::reflection::v1::ServerReflectionRequest>* stream) override;

private:
  std::vector<std::string> m_services;
};

} // namespace opm::serve
