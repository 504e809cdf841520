#include "util/build_id.hpp"

#include <elf.h>
#include <link.h>

#include <cstring>
#include <string_view>

namespace opm::util {

namespace {

constexpr std::string_view k_gnu = "GNU";

std::size_t align4(std::size_t n) { return (n + 3) & ~std::size_t{3}; }

// Reads the NT_GNU_BUILD_ID note of the first object dl_iterate_phdr reports: the program.
int find_build_id(dl_phdr_info* info, std::size_t, void* out_ptr) {
  auto& out = *static_cast<std::string*>(out_ptr);
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) {
      continue;
    }
    const auto* p = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
    std::size_t left = ph.p_memsz;
    while (left >= sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) note{};
      std::memcpy(&note, p, sizeof note);
      std::size_t name_size = align4(note.n_namesz);
      std::size_t size = sizeof note + name_size + align4(note.n_descsz);
      if (size > left) {
        break;
      }
      const auto* name = p + sizeof note;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == k_gnu.size() + 1 &&
          std::memcmp(name, k_gnu.data(), k_gnu.size()) == 0) {
        const auto* desc = name + name_size;
        static constexpr char k_hex[] = "0123456789abcdef";
        for (std::size_t b = 0; b < note.n_descsz; ++b) {
          out += k_hex[desc[b] >> 4];
          out += k_hex[desc[b] & 15];
        }
        return 1;
      }
      p += size;
      left -= size;
    }
  }
  return 1; // only the program itself is of interest
}

} // namespace

const std::string& build_id() {
  static const std::string id = [] {
    std::string out;
    dl_iterate_phdr(find_build_id, &out);
    return out;
  }();
  return id;
}

} // namespace opm::util
