#include "util/import_redirect.hpp"

#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <sys/mman.h>
#include <vector>

namespace opm::util {

namespace {

#if defined(__x86_64__)
constexpr std::uint32_t k_jump_slot = R_X86_64_JUMP_SLOT;
constexpr std::uint32_t k_glob_dat = R_X86_64_GLOB_DAT;
#elif defined(__aarch64__)
constexpr std::uint32_t k_jump_slot = R_AARCH64_JUMP_SLOT;
constexpr std::uint32_t k_glob_dat = R_AARCH64_GLOB_DAT;
#else
constexpr std::uint32_t k_jump_slot = 0xffffffff; // no relocation is read: nothing is redirected
constexpr std::uint32_t k_glob_dat = 0xffffffff;
#endif

struct Search {
  std::string_view library;
  std::string_view function;
  std::vector<void**> slots;
  std::uintptr_t relro_begin = 0;
  std::uintptr_t relro_end = 0;
};

std::string_view file_name(const char* path) {
  std::string_view whole = path != nullptr ? path : "";
  auto slash = whole.rfind('/');
  return slash == std::string_view::npos ? whole : whole.substr(slash + 1);
}

// What the dynamic section says of the library's symbols and relocations. The loader has
// already moved most addresses by the load bias; on targets where it has not, they are small.
struct DynamicTables {
  const ElfW(Sym) * symbols = nullptr;
  const char* strings = nullptr;
  std::span<const ElfW(Rela)> plt;
  std::span<const ElfW(Rela)> data;
  bool plt_is_rela = false;
};

DynamicTables read_dynamic(const ElfW(Dyn) * dynamic, ElfW(Addr) bias) {
  auto address = [bias](ElfW(Addr) value) { return value < bias ? value + bias : value; };
  ElfW(Addr) plt_at = 0;
  ElfW(Addr) data_at = 0;
  std::size_t plt_size = 0;
  std::size_t data_size = 0;
  DynamicTables tables;
  for (const ElfW(Dyn)* entry = dynamic; entry->d_tag != DT_NULL; ++entry) {
    switch (entry->d_tag) {
    case DT_SYMTAB:
      tables.symbols = reinterpret_cast<const ElfW(Sym)*>(address(entry->d_un.d_ptr));
      break;
    case DT_STRTAB:
      tables.strings = reinterpret_cast<const char*>(address(entry->d_un.d_ptr));
      break;
    case DT_JMPREL:
      plt_at = address(entry->d_un.d_ptr);
      break;
    case DT_PLTRELSZ:
      plt_size = entry->d_un.d_val;
      break;
    case DT_PLTREL:
      tables.plt_is_rela = entry->d_un.d_val == DT_RELA;
      break;
    case DT_RELA:
      data_at = address(entry->d_un.d_ptr);
      break;
    case DT_RELASZ:
      data_size = entry->d_un.d_val;
      break;
    default:
      break;
    }
  }
  if (plt_at != 0 && tables.plt_is_rela) {
    tables.plt = {reinterpret_cast<const ElfW(Rela)*>(plt_at), plt_size / sizeof(ElfW(Rela))};
  }
  if (data_at != 0) {
    tables.data = {reinterpret_cast<const ElfW(Rela)*>(data_at), data_size / sizeof(ElfW(Rela))};
  }
  return tables;
}

void collect_slots(const DynamicTables& tables, ElfW(Addr) bias, Search& search) {
  if (tables.symbols == nullptr || tables.strings == nullptr) {
    return;
  }
  for (auto relocations : {tables.plt, tables.data}) {
    for (const ElfW(Rela) & relocation : relocations) {
      auto type = static_cast<std::uint32_t>(ELF64_R_TYPE(relocation.r_info));
      auto symbol = ELF64_R_SYM(relocation.r_info);
      if ((type != k_jump_slot && type != k_glob_dat) || symbol == 0) {
        continue;
      }
      if (search.function == tables.strings + tables.symbols[symbol].st_name) {
        search.slots.push_back(reinterpret_cast<void**>(bias + relocation.r_offset));
      }
    }
  }
}

// The main program is the only loaded object without a file name.
bool is_main_program(const dl_phdr_info* info) {
  return info->dlpi_name == nullptr || info->dlpi_name[0] == '\0';
}

bool names(const dl_phdr_info* info, std::string_view library) {
  return library.empty()
             ? is_main_program(info)
             : !is_main_program(info) && file_name(info->dlpi_name).starts_with(library);
}

int visit_library(dl_phdr_info* info, std::size_t /*size*/, void* data) {
  auto& search = *static_cast<Search*>(data);
  if (!names(info, search.library)) {
    return 0;
  }
  for (std::size_t i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    if (header.p_type == PT_DYNAMIC) {
      const auto* dynamic = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + header.p_vaddr);
      collect_slots(read_dynamic(dynamic, info->dlpi_addr), info->dlpi_addr, search);
    } else if (header.p_type == PT_GNU_RELRO) {
      search.relro_begin = info->dlpi_addr + header.p_vaddr;
      search.relro_end = search.relro_begin + header.p_memsz;
    }
  }
  return 1;
}

// Slots in the part the loader made read-only after relocating are opened for the write.
bool write_slot(void** slot, void* value, const Search& search) {
  auto at = reinterpret_cast<std::uintptr_t>(slot);
  if (at < search.relro_begin || at >= search.relro_end) {
    __atomic_store_n(slot, value, __ATOMIC_RELEASE);
    return true;
  }
  auto page_size = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  void* page = reinterpret_cast<void*>(at & ~(page_size - 1));
  if (::mprotect(page, page_size, PROT_READ | PROT_WRITE) != 0) {
    return false;
  }
  __atomic_store_n(slot, value, __ATOMIC_RELEASE);
  ::mprotect(page, page_size, PROT_READ);
  return true;
}

struct Holder {
  std::uintptr_t address = 0;
  std::optional<std::string> name;
};

int visit_holder(dl_phdr_info* info, std::size_t /*size*/, void* data) {
  auto& holder = *static_cast<Holder*>(data);
  for (std::size_t i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    const std::uintptr_t begin = info->dlpi_addr + header.p_vaddr;
    if (header.p_type == PT_LOAD && holder.address >= begin &&
        holder.address < begin + header.p_memsz) {
      holder.name = is_main_program(info) ? std::string() : std::string(file_name(info->dlpi_name));
      return 1;
    }
  }
  return 0;
}

int visit_loaded(dl_phdr_info* info, std::size_t /*size*/, void* library) {
  return names(info, *static_cast<std::string_view*>(library)) ? 1 : 0;
}

} // namespace

bool library_loaded(std::string_view library) {
  return !library.empty() && ::dl_iterate_phdr(visit_loaded, &library) != 0;
}

std::optional<std::string> file_holding(const void* address) {
  Holder holder{.address = reinterpret_cast<std::uintptr_t>(address), .name = {}};
  ::dl_iterate_phdr(visit_holder, &holder);
  return holder.name;
}

bool redirect_import(std::string_view library, std::string_view function, void* replacement) {
  Search search{.library = library, .function = function, .slots = {}};
  ::dl_iterate_phdr(visit_library, &search);
  if (search.slots.empty()) {
    return false;
  }
  bool all = true;
  for (void** slot : search.slots) {
    all = write_slot(slot, replacement, search) && all;
  }
  return all;
}

} // namespace opm::util
