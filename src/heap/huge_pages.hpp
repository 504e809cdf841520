#pragma once

// Whether a heap should ask the system for huge (2 MiB) pages. Each page a process touches for
// the first time costs a page fault; a huge page costs one fault for 512 small pages, but is
// zeroed whole, however little of it is used. Where a small page's fault is dear (a virtual
// machine whose hypervisor takes every guest fault itself: 11 µs each, against about 1 µs
// elsewhere), huge pages halve a command's CPU; where it is cheap, zeroing a huge page the host
// hands back cold costs more than faulting in the small pages it replaces.
namespace opm::heap {

// Whether a small page's first touch takes 4 µs or more here: the least of a few, so that a
// touch the scheduler interrupted does not count. It allocates nothing, since the heap asks
// before it has one.
bool small_pages_are_dear() noexcept;

} // namespace opm::heap
