#pragma once

#include <cstdio>
#include <memory>

namespace opm::util {

// A unique_ptr deleter that calls the C library's own release function, so every C
// handle has an owner: std::unique_ptr<CURL, CFree<curl_easy_cleanup>>. Null is never
// passed to `Free`.
template <auto Free> struct CFree {
  template <typename T> void operator()(T* p) const noexcept { Free(p); }
};

// A stdio stream, closed when it goes away (the close result is not checked: use it for
// reading).
using CFile = std::unique_ptr<std::FILE, CFree<std::fclose>>;

} // namespace opm::util
