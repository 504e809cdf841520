// The heap of a command that runs and exits (validate, render, templates): C++ allocations go to
// mimalloc when libmimalloc.so.2 is installed. Decoding a catalog makes millions of small
// blocks (each member and string of each document), and mimalloc hands them out and takes them
// back in far fewer instructions than glibc: a tenth less CPU for `validate` and `render` of a
// catalog written as olm.csv.metadata. A server (`serve`, `registry serve`) keeps glibc's heap,
// which gives memory back to the system between requests and keeps its resident size low.
//
// The library is opened by name, not linked: linked, its malloc would replace glibc's for
// every library in the process, servers included. Where it is missing, every command runs on
// glibc's heap, as servers do. The choice is made before any C++ allocation (the command by the
// executable's pre-initialisation hook, which runs before every library's constructors; the
// library opened at the first allocation), so each block is freed by the allocator that made
// it.
//
// Not built into the sanitizer builds, whose runtime replaces these operators itself.

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace {

struct Mimalloc {
  void* (*allocate)(std::size_t) = nullptr;
  void* (*allocate_aligned)(std::size_t, std::size_t) = nullptr;
  void (*release)(void*) = nullptr;
};

enum class Heap { glibc, mimalloc_to_open, mimalloc };

// Set by choose_heap before anything else runs, and by the first allocation (still during
// start-up, on one thread) when it opens mimalloc; read-only afterwards.
Heap g_heap = Heap::glibc;
Mimalloc g_mimalloc;

bool runs_a_server(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "serve") == 0) {
      return true;
    }
  }
  return false;
}

// Runs before every library's constructor, libc's included: it only decides. Opening a
// library here would run libc's constructor early, before it has the environment.
void choose_heap(int argc, char** argv, char** /*envp*/) {
  if (!runs_a_server(argc, argv)) {
    g_heap = Heap::mimalloc_to_open;
  }
}

[[gnu::section(".preinit_array"), gnu::used]] void (*const k_choose_heap)(int, char**,
                                                                          char**) = choose_heap;

// At the first allocation (libc is set up by then): mimalloc where it is installed, else
// glibc's heap for good.
void open_mimalloc() noexcept {
  g_heap = Heap::glibc;
  void* library = ::dlopen("libmimalloc.so.2", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    return;
  }
  g_mimalloc.allocate = reinterpret_cast<void* (*)(std::size_t)>(::dlsym(library, "mi_malloc"));
  g_mimalloc.allocate_aligned =
      reinterpret_cast<void* (*)(std::size_t, std::size_t)>(::dlsym(library, "mi_malloc_aligned"));
  g_mimalloc.release = reinterpret_cast<void (*)(void*)>(::dlsym(library, "mi_free"));
  if (g_mimalloc.allocate != nullptr && g_mimalloc.allocate_aligned != nullptr &&
      g_mimalloc.release != nullptr) {
    g_heap = Heap::mimalloc;
  }
}

bool on_mimalloc() noexcept {
  if (g_heap == Heap::mimalloc_to_open) [[unlikely]] {
    open_mimalloc();
  }
  return g_heap == Heap::mimalloc;
}

void* allocate_or_null(std::size_t size) noexcept {
  if (size == 0) {
    size = 1;
  }
  return on_mimalloc() ? g_mimalloc.allocate(size) : std::malloc(size);
}

void* allocate_aligned_or_null(std::size_t size, std::align_val_t alignment) noexcept {
  const auto align = static_cast<std::size_t>(alignment);
  if (on_mimalloc()) {
    return g_mimalloc.allocate_aligned(size == 0 ? 1 : size, align);
  }
  // aligned_alloc wants a size that is a multiple of the alignment.
  return std::aligned_alloc(align, (size + align - 1) / align * align);
}

void* allocate(std::size_t size) {
  void* block = allocate_or_null(size);
  if (block == nullptr) {
    throw std::bad_alloc();
  }
  return block;
}

void* allocate_aligned(std::size_t size, std::align_val_t alignment) {
  void* block = allocate_aligned_or_null(size, alignment);
  if (block == nullptr) {
    throw std::bad_alloc();
  }
  return block;
}

// A block freed before the first allocation can only be null.
void release(void* block) noexcept {
  if (g_heap == Heap::mimalloc) {
    g_mimalloc.release(block);
  } else {
    std::free(block);
  }
}

} // namespace

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return allocate_or_null(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return allocate_or_null(size);
}
void* operator new(std::size_t size, std::align_val_t alignment) {
  return allocate_aligned(size, alignment);
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
  return allocate_aligned(size, alignment);
}
void* operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return allocate_aligned_or_null(size, alignment);
}
void* operator new[](std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return allocate_aligned_or_null(size, alignment);
}

void operator delete(void* block) noexcept { release(block); }
void operator delete[](void* block) noexcept { release(block); }
void operator delete(void* block, std::size_t) noexcept { release(block); }
void operator delete[](void* block, std::size_t) noexcept { release(block); }
void operator delete(void* block, const std::nothrow_t&) noexcept { release(block); }
void operator delete[](void* block, const std::nothrow_t&) noexcept { release(block); }
void operator delete(void* block, std::align_val_t) noexcept { release(block); }
void operator delete[](void* block, std::align_val_t) noexcept { release(block); }
void operator delete(void* block, std::size_t, std::align_val_t) noexcept { release(block); }
void operator delete[](void* block, std::size_t, std::align_val_t) noexcept { release(block); }
void operator delete(void* block, std::align_val_t, const std::nothrow_t&) noexcept {
  release(block);
}
void operator delete[](void* block, std::align_val_t, const std::nothrow_t&) noexcept {
  release(block);
}
