#pragma once

// A command that builds a large value out of millions of small blocks and then exits
// (validate, render) has glibc grow its heap 128 KiB at a time, return memory at each large
// free and hand every block of 128 KiB or more (file text, a decoded bundle object) a fresh
// mapping of its own, whose pages all fault in again. With the bulk heap on, the heap grows
// and keeps 64 MiB at a time and blocks below 32 MiB come from it. Transparent huge pages
// over it were tried and left out: they won only when the pages had just been freed by the
// same command, and cost a fifth more when they came cold from another process.
// Only for processes that end when their work is done: a server must not turn it on.
namespace opm::util {

// Turns the bulk heap on for the whole process. Call it once, on the main thread, before
// other threads start.
void use_bulk_heap();

} // namespace opm::util
