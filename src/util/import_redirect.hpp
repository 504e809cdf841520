#pragma once

#include <string_view>

// Redirects the calls one loaded shared library makes to a function it imports, by rewriting
// that library's own slots for it (its global offset table). Calls from anywhere else, and
// the function itself, are left as they were.
namespace opm::util {

// Points every call `library` makes to `function` at `replacement`. `library` is the start of
// the file name of a library already loaded ("libgrpc.so"). False, with nothing changed, when
// no such library is loaded, it does not import `function`, or its relocations are of a kind
// this does not read (only 64-bit ELF with RELA relocations is).
bool redirect_import(std::string_view library, std::string_view function, void* replacement);

} // namespace opm::util
