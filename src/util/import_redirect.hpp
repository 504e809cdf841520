#pragma once

#include <optional>
#include <string>
#include <string_view>

// Redirects the calls one loaded shared library makes to a function it imports, by rewriting
// that library's own slots for it (its global offset table). Calls from anywhere else, and
// the function itself, are left as they were.
namespace opm::util {

// Points every call `library` makes to `function` at `replacement`. `library` is the start of
// the file name of a library already loaded ("libgrpc.so"), or empty for the main program.
// False, with nothing changed, when no such library is loaded, it does not import `function`,
// or its relocations are of a kind this does not read (only 64-bit ELF with RELA relocations
// is).
bool redirect_import(std::string_view library, std::string_view function, void* replacement);

// Whether a library whose file name starts with `library` is loaded.
bool library_loaded(std::string_view library);

// How redirect_import names the loaded file that holds `address`: empty for the main program,
// else its file name. Nothing when no loaded file holds it.
std::optional<std::string> file_holding(const void* address);

} // namespace opm::util
