#pragma once

#include <string_view>

namespace opm::util {
std::string_view version();
std::string_view git_commit();
} // namespace opm::util
