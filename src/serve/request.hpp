#pragma once

#include <google/protobuf/message.h>
#include <optional>
#include <string>
#include <string_view>

// Requests decoded as grpc-go decodes them: a request that does not decode fails with the
// text upstream's server answers with (status INTERNAL).
namespace opm::serve {

enum class CallShape { unary, server_streaming };

// Decodes `bytes` into `out`; when they do not decode, grpc-go's text for the failure.
std::optional<std::string> decode_request(std::string_view bytes, google::protobuf::Message& out,
                                          CallShape shape);

} // namespace opm::serve
