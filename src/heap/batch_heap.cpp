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
// A server's load is a command's work inside a server: while a thread holds a scratch heap
// (util/scratch_heap.hpp), its C++ blocks come from a mimalloc heap of its own, in an address
// range reserved for them, so that a block's owner is known from its address. What the server
// keeps from it is copied out under a KeptHeap into a range of its own beside it, densely and
// for good; blocks made outside both are glibc's.
//
// Not built into the sanitizer builds, whose runtime replaces these operators itself.

#include "heap/huge_pages.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sys/mman.h>

namespace {

struct Mimalloc {
  void* (*allocate)(std::size_t) = nullptr;
  void* (*allocate_aligned)(std::size_t, std::size_t) = nullptr;
  void (*release)(void*) = nullptr;
  void (*set_option)(int, long) = nullptr;
};

// mimalloc's own heaps, for the scratch heaps of a server's load.
struct MimallocHeaps {
  bool (*manage_memory)(void*, std::size_t, bool, bool, bool, int, bool, int*) = nullptr;
  void* (*new_heap)(int) = nullptr;
  void (*delete_heap)(void*) = nullptr;
  void (*collect_heap)(void*, bool) = nullptr;
  void* (*allocate)(void*, std::size_t) = nullptr;
  void* (*allocate_aligned)(void*, std::size_t, std::size_t) = nullptr;
  void (*release)(void*) = nullptr;
  void (*set_option)(int, long) = nullptr;
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

// A function of `library` by name; false when it has none.
template <typename Function> bool find(void* library, const char* name, Function& out) {
  out = reinterpret_cast<Function>(::dlsym(library, name));
  return out != nullptr;
}

// mimalloc's options (mimalloc.h, the same in every 2.x release).
constexpr int k_option_show_errors = 0;
constexpr int k_option_large_os_pages = 6;
constexpr int k_option_eager_commit_delay = 14;

// Whether a command's heap takes huge pages (heap/huge_pages.hpp): where small pages' faults
// are dear, `render -o json` of v4.22 takes 40 % less CPU on them, even right after another
// process freed 900 MB. The environment may say otherwise (MIMALLOC_LARGE_OS_PAGES).
bool commands_take_huge_pages() noexcept {
  return std::getenv("MIMALLOC_LARGE_OS_PAGES") == nullptr && opm::heap::small_pages_are_dear();
}

// At the first allocation (libc is set up by then): mimalloc where it is installed, else
// glibc's heap for good.
void open_mimalloc() noexcept {
  g_heap = Heap::glibc;
  void* library = ::dlopen("libmimalloc.so.2", RTLD_NOW | RTLD_LOCAL);
  if (library != nullptr && find(library, "mi_malloc", g_mimalloc.allocate) &&
      find(library, "mi_malloc_aligned", g_mimalloc.allocate_aligned) &&
      find(library, "mi_free", g_mimalloc.release) &&
      find(library, "mi_option_set", g_mimalloc.set_option)) {
    if (commands_take_huge_pages()) {
      g_mimalloc.set_option(k_option_large_os_pages, 1);
      // Each thread's first segment too, where a catalog's files are decoded: without this it
      // is committed as it is used, in small pages (2,600 faults against 540 for v4.22's
      // render -o json, and a third more CPU).
      if (std::getenv("MIMALLOC_EAGER_COMMIT_DELAY") == nullptr) {
        g_mimalloc.set_option(k_option_eager_commit_delay, 0);
      }
    }
    g_heap = Heap::mimalloc;
  }
}

bool on_mimalloc() noexcept {
  if (g_heap == Heap::mimalloc_to_open) [[unlikely]] {
    open_mimalloc();
  }
  return g_heap == Heap::mimalloc;
}

// ---- scratch heaps -------------------------------------------------------------------------

// The address range scratch heaps allocate in: mimalloc's arena, exclusive to them, so that a
// block inside it is mimalloc's and any other is glibc's. Only address space is reserved; a
// heap that fills it gets glibc's blocks instead. Above it, in the same reservation, is the
// range what a server keeps is made in (below).
struct ScratchArena {
  MimallocHeaps mi;
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  int id = 0;
  std::uintptr_t kept_end = 0;
  mutable std::atomic<std::uintptr_t> kept_next = 0;
};

constexpr std::size_t k_scratch_reserve = std::size_t{16} << 30;
constexpr std::size_t k_kept_reserve = std::size_t{4} << 30;
constexpr std::size_t k_arena_alignment = std::size_t{64} << 20; // mimalloc's segment size

// Set once, by the first scratch heap. The library and the range are the process's to its end.
std::atomic<const ScratchArena*> g_scratch_arena = nullptr;
thread_local void* t_scratch_heap = nullptr;

bool find_heap_functions(MimallocHeaps& mi) {
  void* library = ::dlopen("libmimalloc.so.2", RTLD_NOW | RTLD_LOCAL);
  return library != nullptr && find(library, "mi_manage_os_memory_ex", mi.manage_memory) &&
         find(library, "mi_heap_new_in_arena", mi.new_heap) &&
         find(library, "mi_heap_delete", mi.delete_heap) &&
         find(library, "mi_heap_collect", mi.collect_heap) &&
         find(library, "mi_heap_malloc", mi.allocate) &&
         find(library, "mi_heap_malloc_aligned", mi.allocate_aligned) &&
         find(library, "mi_free", mi.release) && find(library, "mi_option_set", mi.set_option);
}

const ScratchArena* make_scratch_arena() noexcept {
  static ScratchArena arena;
  if (!find_heap_functions(arena.mi)) {
    return nullptr;
  }
  // A full range is not an error here: the block comes from glibc.
  arena.mi.set_option(k_option_show_errors, 0);
  const std::size_t reserve = k_scratch_reserve + k_kept_reserve;
  void* reserved = ::mmap(nullptr, reserve + k_arena_alignment, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserved == MAP_FAILED) {
    return nullptr;
  }
  const auto start = (reinterpret_cast<std::uintptr_t>(reserved) + k_arena_alignment - 1) &
                     ~(k_arena_alignment - 1);
  // Not committed, so that mimalloc gives pages back as they empty; exclusive, so that only
  // the scratch heaps allocate in it.
  if (!arena.mi.manage_memory(reinterpret_cast<void*>(start), k_scratch_reserve, false, false, true,
                              -1, true, &arena.id)) {
    ::munmap(reserved, reserve + k_arena_alignment);
    return nullptr;
  }
  // Where the system hands out huge pages on request, a load faults in one 2 MiB page where
  // it would fault in 512 small ones: a third of a server's start-up CPU went on page faults.
  // Advice only; where it is not taken, small pages serve as before.
  ::madvise(reinterpret_cast<void*>(start), reserve, MADV_HUGEPAGE);
  arena.begin = start;
  arena.end = start + k_scratch_reserve;
  arena.kept_next = arena.end;
  arena.kept_end = arena.end + k_kept_reserve;
  g_scratch_arena.store(&arena, std::memory_order_release);
  return &arena;
}

const ScratchArena* scratch_arena() noexcept {
  static const ScratchArena* const arena = make_scratch_arena();
  return arena;
}

// The arena of a thread that holds a scratch heap: made before its first heap, so no check.
const ScratchArena& made_scratch_arena() noexcept {
  return *g_scratch_arena.load(std::memory_order_relaxed);
}

// Which heap `block` came from.
enum class Owner { glibc, scratch, kept };

Owner owner_of(const void* block) noexcept {
  const ScratchArena* arena = g_scratch_arena.load(std::memory_order_acquire);
  const auto address = reinterpret_cast<std::uintptr_t>(block);
  if (arena == nullptr || address < arena->begin || address >= arena->kept_end) {
    return Owner::glibc;
  }
  return address < arena->end ? Owner::scratch : Owner::kept;
}

// ---- what a server keeps -------------------------------------------------------------------

// What a server keeps from its load lives as long as the server: each thread hands it out from
// 2 MiB pieces of the kept range, one after the other, and freeing one does nothing. It lies
// as densely as it is made, on huge pages where the system gives them: a v4.22 start-up
// faulted in its 13 MB of index 4 KiB at a time on glibc's heap, a fifth of its CPU time.
constexpr std::size_t k_kept_piece = std::size_t{2} << 20;
constexpr std::size_t k_kept_alignment = 16;

// The heap the kept blocks are handed out from while it is a thread's scratch heap: a marker,
// not one of mimalloc's.
char g_kept_marker;
void* const k_kept_heap = &g_kept_marker;

thread_local std::uintptr_t t_kept_next = 0;
thread_local std::uintptr_t t_kept_end = 0;

std::uintptr_t round_up(std::uintptr_t value, std::size_t alignment) {
  return (value + alignment - 1) & ~(std::uintptr_t{alignment} - 1);
}

// Null when the range is full: the block then comes from glibc.
void* allocate_kept(std::size_t size, std::size_t alignment) noexcept {
  if (size > k_kept_reserve || alignment > k_kept_piece) {
    return nullptr; // more than the range holds: glibc says whether it can
  }
  alignment = std::max(alignment, k_kept_alignment);
  size = round_up(size, k_kept_alignment);
  std::uintptr_t at = round_up(t_kept_next, alignment);
  if (t_kept_next == 0 || at + size > t_kept_end) {
    const ScratchArena& arena = made_scratch_arena();
    const std::size_t piece = round_up(size + alignment, k_kept_piece);
    const std::uintptr_t start = arena.kept_next.fetch_add(piece, std::memory_order_relaxed);
    if (start + piece > arena.kept_end) {
      return nullptr;
    }
    t_kept_next = start;
    t_kept_end = start + piece;
    at = round_up(start, alignment);
  }
  t_kept_next = at + size;
  return reinterpret_cast<void*>(at);
}

// ---- allocation ----------------------------------------------------------------------------

void* allocate_or_null(std::size_t size) noexcept {
  if (size == 0) {
    size = 1;
  }
  if (on_mimalloc()) {
    return g_mimalloc.allocate(size);
  }
  if (t_scratch_heap == k_kept_heap) {
    if (void* block = allocate_kept(size, k_kept_alignment)) {
      return block;
    }
  } else if (t_scratch_heap != nullptr) {
    if (void* block = made_scratch_arena().mi.allocate(t_scratch_heap, size)) {
      return block;
    }
  }
  return std::malloc(size);
}

void* allocate_aligned_or_null(std::size_t size, std::align_val_t alignment) noexcept {
  const auto align = static_cast<std::size_t>(alignment);
  if (on_mimalloc()) {
    return g_mimalloc.allocate_aligned(size == 0 ? 1 : size, align);
  }
  if (t_scratch_heap == k_kept_heap) {
    if (void* block = allocate_kept(size == 0 ? 1 : size, align)) {
      return block;
    }
  } else if (t_scratch_heap != nullptr) {
    if (void* block =
            made_scratch_arena().mi.allocate_aligned(t_scratch_heap, size == 0 ? 1 : size, align)) {
      return block;
    }
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
    return;
  }
  switch (owner_of(block)) {
  case Owner::glibc:
    std::free(block);
    break;
  case Owner::scratch:
    g_scratch_arena.load(std::memory_order_relaxed)->mi.release(block);
    break;
  case Owner::kept:
    break; // kept for the process's life
  }
}

} // namespace

// The scratch heap hooks util::ScratchHeap looks up. A command already on mimalloc has none to
// give. A heap is one thread's: begin and end are called on the same thread.
extern "C" [[gnu::visibility("default")]] void* opm_scratch_heap_begin() noexcept {
  if (on_mimalloc() || t_scratch_heap != nullptr) {
    return nullptr;
  }
  const ScratchArena* arena = scratch_arena();
  if (arena == nullptr) {
    return nullptr;
  }
  t_scratch_heap = arena->mi.new_heap(arena->id);
  return t_scratch_heap;
}

extern "C" [[gnu::visibility("default")]] void opm_scratch_heap_end(void* heap) noexcept {
  if (heap == nullptr) {
    return;
  }
  t_scratch_heap = nullptr;
  // Empty pages go back to the system now; blocks still in use move to the thread's own heap
  // and are freed as any other.
  const ScratchArena* arena = scratch_arena();
  arena->mi.collect_heap(heap, true);
  arena->mi.delete_heap(heap);
}

// The heap a KeptHeap inside a scratch heap allocates from: the kept range. Only a thread that
// holds a scratch heap asks, so the arena is there.
extern "C" [[gnu::visibility("default")]] void* opm_scratch_heap_kept() noexcept {
  return k_kept_heap;
}

extern "C" [[gnu::visibility("default")]] void* opm_scratch_heap_swap(void* heap) noexcept {
  void* previous = t_scratch_heap;
  t_scratch_heap = heap;
  return previous;
}

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
