// Layer blobs (tar, gzip or zstd) unpacked by the registry layer's extractor into a temporary
// directory: once alone, once applied twice over itself (whiteouts and overwrites of a lower
// layer), once keeping only the bundle subtrees. Whatever the layer holds, nothing may be
// written beside the destination and a failure leaves nothing behind.
#include "registry/detail/unpack.hpp"

#include <set>
#include <string>
#include <vector>

#include "fuzz_support.hpp"

namespace fs = std::filesystem;

namespace {

std::set<std::string> entries_of(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

opm::registry::UnpackLimits small_limits() {
  opm::registry::UnpackLimits limits;
  limits.max_total_bytes = 64ULL << 20;
  limits.max_file_bytes = 16ULL << 20;
  limits.max_entries = 10'000;
  limits.ratio_floor_bytes = 1ULL << 20;
  return limits;
}

// The sandbox: <root>/run/{layer,out} and an empty <root>/victim next to it, where a ".."
// that slipped through would land.
void unpack_in_sandbox(const fs::path& root, std::size_t times,
                       const std::vector<std::string>& prefixes) {
  auto run = root / "run";
  auto dest = run / "out";
  std::vector<opm::registry::LayerFile> layers(
      times, opm::registry::LayerFile{run / "layer", "sha256:fuzz", "application/x-tar"});
  auto unpacked =
      opm::registry::unpack_layers(layers, dest, small_limits(), opm::registry::Log{}, prefixes);

  OPM_FUZZ_CHECK((entries_of(root) == std::set<std::string>{"run", "victim"}));
  OPM_FUZZ_CHECK(entries_of(root / "victim").empty());
  auto expected = unpacked ? std::set<std::string>{"layer", "out"} : std::set<std::string>{"layer"};
  OPM_FUZZ_CHECK(entries_of(run) == expected);
  if (unpacked) {
    OPM_FUZZ_CHECK(fs::is_directory(fs::symlink_status(dest)));
    std::error_code ignored;
    fs::remove_all(dest, ignored);
    OPM_FUZZ_CHECK(!ignored);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  opm::fuzz::TempDir root;
  opm::fuzz::write_file(root.path() / "run" / "layer", opm::fuzz::as_text(data, size));
  fs::create_directory(root.path() / "victim");
  unpack_in_sandbox(root.path(), 1, {});
  unpack_in_sandbox(root.path(), 2, {});
  unpack_in_sandbox(root.path(), 1, {"manifests", "metadata"});
  return 0;
}
