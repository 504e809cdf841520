#pragma once

// A command that builds a large value out of millions of small blocks and then exits
// (validate, render) spends about a sixth of its time in page faults: glibc grows its heaps
// 128 KiB at a time, and every 4 KiB page faults once. With the bulk heap on, the main heap
// grows 64 MiB at a time and the heaps ask for transparent huge pages, one fault per 2 MiB.
// Only for processes that end when their work is done: huge pages keep freed memory
// resident, so a server must never turn it on.
namespace opm::util {

// Turns the bulk heap on for the whole process. Call it once, on the main thread.
void use_bulk_heap();

// A new thread's own heap (glibc gives each thread an arena of its own) asks for huge pages
// too, if the bulk heap is on; nothing otherwise. Call it first thing in the thread.
void use_bulk_heap_in_this_thread();

} // namespace opm::util
