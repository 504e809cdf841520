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
  void* (*kept)() = nullptr;
};

Hooks find_hooks() {
  Hooks hooks;
  hooks.begin = reinterpret_cast<void* (*)()>(::dlsym(RTLD_DEFAULT, "opm_scratch_heap_begin"));
  hooks.end = reinterpret_cast<void (*)(void*)>(::dlsym(RTLD_DEFAULT, "opm_scratch_heap_end"));
  hooks.swap = reinterpret_cast<void* (*)(void*)>(::dlsym(RTLD_DEFAULT, "opm_scratch_heap_swap"));
  hooks.kept = reinterpret_cast<void* (*)()>(::dlsym(RTLD_DEFAULT, "opm_scratch_heap_kept"));
  if (hooks.begin == nullptr || hooks.end == nullptr || hooks.swap == nullptr ||
      hooks.kept == nullptr) {
    return {};
  }
  return hooks;
}

const Hooks& hooks() {
  static const Hooks found = find_hooks();
  return found;
}

} // namespace

ScratchHeap::ScratchHeap() : m_heap(hooks().begin != nullptr ? hooks().begin() : nullptr) {}

ScratchHeap::~ScratchHeap() {
  if (m_heap != nullptr) {
    hooks().end(m_heap);
  }
}

KeptHeap::KeptHeap() : m_replaced(hooks().swap != nullptr ? hooks().swap(nullptr) : nullptr) {
  if (m_replaced != nullptr) {
    hooks().swap(hooks().kept());
  }
}

KeptHeap::~KeptHeap() {
  if (m_replaced != nullptr) {
    hooks().swap(m_replaced);
  }
}

} // namespace opm::util
