#pragma once

#include <type_traits>
#include <utility>

// Work inside a long-running process that makes and frees millions of small blocks (a
// server's load): while a ScratchHeap lives, the C++ blocks its thread allocates come from a
// heap of their own, faster at that, whose pages go back to the system when it ends. That
// heap is the executable's to give (opm's, on mimalloc, see src/heap/); without one, or in a
// command already on mimalloc, these do nothing. Whatever the process keeps afterwards is
// made under a KeptHeap, so that the scratch heap's pages empty. A ScratchHeap made while one
// of its thread's lives does nothing: the outer one serves both, and its pages are reused from
// one piece of work to the next until it ends.
namespace opm::util {

class ScratchHeap {
public:
  ScratchHeap();
  ~ScratchHeap();
  ScratchHeap(const ScratchHeap&) = delete;
  ScratchHeap& operator=(const ScratchHeap&) = delete;

private:
  void* m_heap;
};

// Inside a ScratchHeap, allocates what outlives it while it lives: from the process's range
// for what it keeps to its end, where blocks lie as densely as they are made and none is ever
// given back. Only what is made at its final size belongs there (a copy, not a string being
// built): a block freed in it is lost. Outside a ScratchHeap, allocates from the process's own
// heap, as before.
class KeptHeap {
public:
  KeptHeap();
  ~KeptHeap();
  KeptHeap(const KeptHeap&) = delete;
  KeptHeap& operator=(const KeptHeap&) = delete;

  // What the process keeps of `made`: inside a scratch heap, a copy made here (each part at
  // its size, out of the scratch heap's pages); outside one, `made` itself, moved.
  template <typename T>
  requires(!std::is_reference_v<T>) T keep(T&& made)
  const {
    if (m_replaced != nullptr) {
      return T(std::as_const(made));
    }
    return T(std::move(made));
  }

private:
  void* m_replaced;
};

} // namespace opm::util
