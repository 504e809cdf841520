#include "serve/reflection_v1.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <set>
#include <string_view>

namespace opm::serve {

namespace {

namespace pb = google::protobuf;
using grpc::reflection::v1::ServerReflectionRequest;
using grpc::reflection::v1::ServerReflectionResponse;

// The answers of one stream: a file's descriptor comes with those of the files it imports,
// each file sent once a stream, as grpc-go's reflection service sends them.
class Answers {
public:
  explicit Answers(const std::vector<std::string>& services) : m_services(services) {}

  ServerReflectionResponse answer(const ServerReflectionRequest& request) {
    ServerReflectionResponse response;
    response.set_valid_host(request.host());
    *response.mutable_original_request() = request;
    grpc::Status status = fill(request, response);
    if (!status.ok()) {
      auto* error = response.mutable_error_response();
      error->set_error_code(status.error_code());
      error->set_error_message(status.error_message());
    }
    return response;
  }

private:
  grpc::Status fill(const ServerReflectionRequest& request, ServerReflectionResponse& response) {
    const pb::DescriptorPool* pool = pb::DescriptorPool::generated_pool();
    switch (request.message_request_case()) {
    case ServerReflectionRequest::kListServices:
      for (const std::string& name : m_services) {
        response.mutable_list_services_response()->add_service()->set_name(name);
      }
      return grpc::Status::OK;
    case ServerReflectionRequest::kFileByFilename:
      return files(pool->FindFileByName(request.file_by_filename()), "File not found.", response);
    case ServerReflectionRequest::kFileContainingSymbol:
      return files(pool->FindFileContainingSymbol(request.file_containing_symbol()),
                   "Symbol not found.", response);
    case ServerReflectionRequest::kFileContainingExtension: {
      const auto& wanted = request.file_containing_extension();
      const pb::Descriptor* type = pool->FindMessageTypeByName(wanted.containing_type());
      if (type == nullptr) {
        return {grpc::StatusCode::NOT_FOUND, "Type not found."};
      }
      const pb::FieldDescriptor* extension =
          pool->FindExtensionByNumber(type, wanted.extension_number());
      if (extension == nullptr) {
        return {grpc::StatusCode::NOT_FOUND, "Extension not found."};
      }
      return files(extension->file(), "File not found.", response);
    }
    case ServerReflectionRequest::kAllExtensionNumbersOfType: {
      const pb::Descriptor* type =
          pool->FindMessageTypeByName(request.all_extension_numbers_of_type());
      if (type == nullptr) {
        return {grpc::StatusCode::NOT_FOUND, "Type not found."};
      }
      std::vector<const pb::FieldDescriptor*> extensions;
      pool->FindAllExtensions(type, &extensions);
      auto* numbers = response.mutable_all_extension_numbers_response();
      numbers->set_base_type_name(type->full_name());
      for (const pb::FieldDescriptor* extension : extensions) {
        numbers->add_extension_number(extension->number());
      }
      return grpc::Status::OK;
    }
    default:
      return {grpc::StatusCode::UNIMPLEMENTED, ""};
    }
  }

  grpc::Status files(const pb::FileDescriptor* file, std::string_view missing,
                     ServerReflectionResponse& response) {
    if (file == nullptr) {
      return {grpc::StatusCode::NOT_FOUND, std::string(missing)};
    }
    add_file(file, *response.mutable_file_descriptor_response());
    return grpc::Status::OK;
  }

  void add_file(const pb::FileDescriptor* file, grpc::reflection::v1::FileDescriptorResponse& out) {
    if (!m_sent.insert(file->name()).second) {
      return;
    }
    pb::FileDescriptorProto proto;
    file->CopyTo(&proto);
    out.add_file_descriptor_proto(proto.SerializeAsString());
    for (int i = 0; i < file->dependency_count(); ++i) {
      add_file(file->dependency(i), out);
    }
  }

  const std::vector<std::string>& m_services;
  std::set<std::string> m_sent;
};

} // namespace

grpc::Status ReflectionV1Service::ServerReflectionInfo(
    grpc::ServerContext* /*context*/,
    grpc::ServerReaderWriter<ServerReflectionResponse, ServerReflectionRequest>* stream) {
  Answers answers(m_services);
  ServerReflectionRequest request;
  while (stream->Read(&request)) {
    if (!stream->Write(answers.answer(request))) {
      break;
    }
  }
  return grpc::Status::OK;
}

} // namespace opm::serve
