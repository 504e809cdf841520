#include "serve/request.hpp"

#include <google/protobuf/unknown_field_set.h>

namespace opm::serve {

namespace {

// Go's protobuf reason. Bytes that are valid wire format but do not decode into a request
// (whose fields are all strings) hold a string that is not UTF-8.
std::string_view why_undecodable(std::string_view bytes) {
  google::protobuf::UnknownFieldSet fields;
  return fields.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))
             ? "string field contains invalid UTF-8"
             : "proto: cannot parse invalid wire-format data";
}

} // namespace

std::optional<std::string> decode_request(std::string_view bytes, google::protobuf::Message& out,
                                          CallShape shape) {
  if (out.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return std::nullopt;
  }
  std::string text = shape == CallShape::unary ? "grpc: error unmarshalling request: "
                                               : "grpc: failed to unmarshal the received message ";
  text += why_undecodable(bytes);
  return text;
}

} // namespace opm::serve
