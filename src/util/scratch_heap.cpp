#include "util/scratch_heap.hpp"

#include <dlfcn.h>

namespace opm::util {

namespace {

// The executable's hooks (src/heap/batch_heap.cpp), found by name so that the serve module
// and test programs, which have none, link without them.
struct Hooks {
  void* (*begin)() = nullptr;
  void (*end)(void*) = nullptr;
  void* (*swap)(void*) = nullptr;
};

Hooks find_hooks() {
  Hooks hooks;
  hooks.begin = reinterpret_cast<void* (*)()>(::dlsym(RTLD_DEFAULT, "opm_scratch_heap_begin"));
  hooks.end = reinterpret_cast<void (*)(void*)>(::dlsym(RTLD_DEFAULT, "opm_scratch_heap_end"));
  hooks.swap = reinterpret_cast<void* (*)(void*)>(::dlsym(RTLD_DEFAULT, "opm_scratch_heap_swap"));
  if (hooks.begin == nullptr || hooks.end == nullptr || hooks.swap == nullptr) {
    return {};
  }
  return hooks;
}

const Hooks& hooks() {
  static const Hooks found = find_hooks();
  return found;
}

// The scratch heap the innermost KeptHeap of this thread paused, if any.
thread_local void* t_paused = nullptr;

} // namespace

ScratchHeap::ScratchHeap() : m_heap(hooks().begin != nullptr ? hooks().begin() : nullptr) {}

ScratchHeap::~ScratchHeap() {
  if (m_heap != nullptr) {
    hooks().end(m_heap);
  }
}

KeptHeap::KeptHeap()
    : m_paused(hooks().swap != nullptr ? hooks().swap(nullptr) : nullptr),
      m_outer_paused(t_paused) {
  if (m_paused != nullptr) {
    t_paused = m_paused;
  }
}

KeptHeap::~KeptHeap() {
  t_paused = m_outer_paused;
  if (m_paused != nullptr) {
    hooks().swap(m_paused);
  }
}

ScratchResumed::ScratchResumed()
    : m_replaced(t_paused != nullptr ? hooks().swap(t_paused) : nullptr),
      m_resumed(t_paused != nullptr) {}

ScratchResumed::~ScratchResumed() {
  if (m_resumed) {
    hooks().swap(m_replaced);
  }
}

} // namespace opm::util
