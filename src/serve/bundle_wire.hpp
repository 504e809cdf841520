#pragma once

#include "serve/registry.pb.h"

#include <string>

// The protobuf wire bytes of an api.Bundle, as SerializeToString writes them (fields in
// number order, empty proto3 scalars left out), without its UTF-8 check of every string:
// the manifests make that check most of the cost of encoding a bundle, and the strings come
// from JSON texts that were decoded (or checked) as UTF-8 already.
namespace opm::serve {

std::string bundle_wire_bytes(const api::Bundle& bundle);

} // namespace opm::serve
