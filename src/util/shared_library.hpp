#pragma once

#include "util/error.hpp"

#include <mutex>
#include <string>

namespace opm::util {

// A shared library loaded by soname when a command first needs it, and never unloaded. A
// library linked in is loaded, with everything it pulls in, by every command at start, which
// for libcurl and libarchive was 4 ms of each run.
class SharedLibrary {
public:
  // The library, or "cannot load <soname>: <the loader's words>".
  static Result<SharedLibrary> open(const char* soname);

  // Sets `out` to the function called `name`; false if there is none.
  template <typename Function> bool resolve(const char* name, Function& out) const {
    out = reinterpret_cast<Function>(symbol(name));
    return out != nullptr;
  }

  // "cannot load <soname>: <the loader's words>", after a failed resolve().
  Error missing_symbol() const;

private:
  SharedLibrary(void* handle, const char* soname) : m_handle(handle), m_soname(soname) {}
  void* symbol(const char* name) const;

  void* m_handle;
  std::string m_soname;
  mutable std::string m_missing; // the loader's words for the last function not found
};

// A table of a library's functions, filled by `load` the first time get() is called, once
// per process, and kept until exit.
template <typename Table> class LoadedOnce {
public:
  using Loader = Result<const Table*> (*)();
  explicit LoadedOnce(Loader load) : m_load(load) {}

  // The table, or why it could not be loaded.
  Result<const Table*> get() {
    std::call_once(m_once, [this] { m_loaded = m_load(); });
    return m_loaded;
  }

  // The table; only after get() succeeded.
  const Table& loaded() const { return **m_loaded; }

private:
  Loader m_load;
  std::once_flag m_once;
  Result<const Table*> m_loaded{nullptr};
};

} // namespace opm::util
