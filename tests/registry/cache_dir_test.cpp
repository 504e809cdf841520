#include "registry/cache_dir.hpp"
#include "registry/digest.hpp"
#include "registry/layout.hpp"
#include "support/temp_dir.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>

using namespace opm::registry;
namespace fs = std::filesystem;

namespace {

// Whether another process could take the cache for pruning right now.
bool free_to_prune(const fs::path& dir) {
  opm::util::Fd fd(::open((dir / "use.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
  return fd.fd >= 0 && ::flock(fd.fd, LOCK_EX | LOCK_NB) == 0;
}

void set_age(const fs::path& file, std::chrono::hours age) {
  fs::last_write_time(file, fs::file_time_type::clock::now() - age);
}

std::chrono::hours age_of(const fs::path& file) {
  return std::chrono::duration_cast<std::chrono::hours>(fs::file_time_type::clock::now() -
                                                        fs::last_write_time(file));
}
} // namespace

TEST_SUITE("registry cache directory") {
  TEST_CASE("an open blob store holds the cache directory until it is closed") {
    opm::test::TempDir s;
    {
      auto store = BlobStore::open(s.path());
      REQUIRE(store);
      CHECK(!free_to_prune(s.path()));
    }
    CHECK(free_to_prune(s.path()));
  }

  TEST_CASE("a private blob store does not hold the directory") {
    opm::test::TempDir s;
    auto store = BlobStore::open(s.path(), BlobStore::Sharing::private_to_process);
    REQUIRE(store);
    CHECK(free_to_prune(s.path()));
  }

  TEST_CASE("pruning waits for a shared hold to end, saying so once") {
    opm::test::TempDir s;
    auto reader = std::make_unique<CacheUse>(CacheUse::shared(s.path()));
    std::atomic<int> waits{0};
    std::atomic<bool> pruning{false};
    std::thread pruner([&] {
      auto held = CacheUse::exclusive(s.path(), [&] { ++waits; });
      REQUIRE(held);
      pruning = true;
    });
    while (waits == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(!pruning);
    reader.reset();
    pruner.join();
    CHECK(pruning);
    CHECK(waits == 1);
  }

  TEST_CASE("a hit renews a blob's last use") {
    opm::test::TempDir s;
    auto store = *BlobStore::open(s.path());
    std::string d = digest_of("hello");
    REQUIRE(store->put(d, "hello"));
    set_age(store->path_of(d), std::chrono::hours(48));
    CHECK(!store->has(d, 6));
    CHECK(age_of(store->path_of(d)) == std::chrono::hours(48));
    CHECK(store->has(d, 5));
    CHECK(age_of(store->path_of(d)) == std::chrono::hours(0));
  }

  TEST_CASE("prunes entries used before the cutoff and the references to their manifests") {
    opm::test::TempDir s;
    std::string old_digest = digest_of("old");
    std::string new_digest = digest_of("new");
    {
      auto store = *BlobStore::open(s.path());
      REQUIRE(store->put(old_digest, "old"));
      REQUIRE(store->put(new_digest, "new"));
      REQUIRE(store->record("example.com/a:v1", {"application/json", old_digest, 3, {}}));
      REQUIRE(store->record("example.com/b:v1", {"application/json", new_digest, 3, {}}));
      set_age(store->path_of(old_digest), std::chrono::hours(48));
    }
    auto before = cache_inventory(s.path());
    REQUIRE(before);
    CHECK(before->entries.size() == 2);

    auto held = *CacheUse::exclusive(s.path(), [] {});
    auto pruned = prune_cache(s.path(), CacheClock::now() - std::chrono::hours(24));
    REQUIRE(pruned);
    CHECK(pruned->removed_entries == 1);
    CHECK(pruned->removed_bytes == 3);
    auto store = *BlobStore::open(s.path(), BlobStore::Sharing::private_to_process);
    CHECK(!store->has(old_digest, 3));
    CHECK(store->has(new_digest, 3));
    CHECK(!store->lookup("example.com/a:v1"));
    CHECK(store->lookup("example.com/b:v1"));
  }

  TEST_CASE("an interrupted removal is finished by the next prune, whatever its age") {
    opm::test::TempDir s;
    fs::create_directories(s.path() / "catalog-layers/.pruning-1-k");
    { std::ofstream(s.path() / "catalog-layers/.pruning-1-k/layers.json") << "{}"; }
    auto pruned = prune_cache(s.path(), CacheClock::now() - std::chrono::hours(24 * 365));
    REQUIRE(pruned);
    CHECK(pruned->removed_entries == 1);
    CHECK(!fs::exists(s.path() / "catalog-layers/.pruning-1-k"));
  }

  TEST_CASE("a cache directory that does not exist holds nothing") {
    opm::test::TempDir s;
    auto inventory = cache_inventory(s.path() / "none");
    REQUIRE(inventory);
    CHECK(inventory->entries.empty());
    CHECK(inventory->total_bytes == 0);
    CHECK(!fs::exists(s.path() / "none"));
  }
}
