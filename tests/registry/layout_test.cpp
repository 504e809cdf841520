#include "registry/digest.hpp"
#include "registry/layout.hpp"
#include "support/temp_dir.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <sys/stat.h>
#include <thread>

using namespace opm::registry;
namespace fs = std::filesystem;
using opm::test::TempDir;

namespace {
std::size_t count_files(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) {
    ++n;
  }
  return n;
}
} // namespace

TEST_SUITE("registry layout") {
  TEST_CASE("stores verified blobs read-only under their digest") {
    TempDir s;
    auto store = BlobStore::open(s.path() / "cache");
    REQUIRE(store);
    std::string body = "hello";
    std::string d = digest_of(body);
    CHECK(d == "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
    REQUIRE((*store)->put(d, body));
    CHECK((*store)->has(d, 5));
    CHECK(!(*store)->has(d, 6));
    CHECK(*(*store)->read(d, 100) == "hello");
    struct stat st {};
    ::stat((*store)->path_of(d).c_str(), &st);
    CHECK((st.st_mode & 0777) == 0444);
    CHECK(fs::exists(s.path() / "cache/oci-layout"));
  }

  TEST_CASE("refuses a blob whose digest or size does not match and leaves no ingest file") {
    TempDir s;
    auto store = *BlobStore::open(s.path() / "cache");
    std::string d = digest_of("hello");
    auto r = store->put(d, "hellO");
    REQUIRE(!r);
    CHECK(r.error().message() == "digest mismatch for " + d + ": got " + digest_of("hellO"));
    CHECK(!store->has(d, -1));
    auto big = store->ingest(d, 5, [](BlobStore::Writer& w) { return w.write("hello!"); });
    REQUIRE(!big);
    CHECK(big.error().message() == "blob is larger than its descriptor size 5");
    std::size_t non_lock = 0;
    for (const auto& e : fs::directory_iterator(s.path() / "cache/ingest")) {
      non_lock += e.path().extension() != ".lock" ? 1 : 0;
    }
    CHECK(non_lock == 0);
  }

  TEST_CASE("one download per digest among threads") {
    TempDir s;
    auto store = *BlobStore::open(s.path() / "cache");
    std::string body(100000, 'x');
    std::string d = digest_of(body);
    std::atomic<int> producers{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; ++i) {
      threads.emplace_back([&] {
        auto r =
            store->ingest(d, static_cast<std::int64_t>(body.size()), [&](BlobStore::Writer& w) {
              ++producers;
              std::this_thread::sleep_for(std::chrono::milliseconds(20));
              return w.write(body);
            });
        CHECK(r);
      });
    }
    for (auto& t : threads) {
      t.join();
    }
    CHECK(producers.load() == 1);
    CHECK(count_files(s.path() / "cache/blobs/sha256") == 1);
  }

  TEST_CASE("records references in index.json and collects unreachable blobs") {
    TempDir s;
    auto store = *BlobStore::open(s.path() / "cache");
    std::string layer = "layer-bytes";
    std::string config = "{}";
    std::string manifest = R"({"schemaVersion":2,"config":{"digest":")" + digest_of(config) +
                           R"(","size":2},"layers":[{"digest":")" + digest_of(layer) +
                           R"(","size":11}]})";
    REQUIRE(store->put(digest_of(layer), layer));
    REQUIRE(store->put(digest_of(config), config));
    REQUIRE(store->put(digest_of(manifest), manifest));
    REQUIRE(store->put(digest_of("orphan"), "orphan"));
    Descriptor m{"application/vnd.oci.image.manifest.v1+json", digest_of(manifest),
                 static_cast<std::int64_t>(manifest.size()), std::nullopt};
    REQUIRE(store->record("quay.io/ns/img:v1", m));
    auto found = store->lookup("quay.io/ns/img:v1");
    REQUIRE(found);
    CHECK(found->digest == m.digest);
    CHECK(hex_encode("a:b") == "613a62");
    auto layout_ref = resolve_layout_ref(s.path() / "cache", hex_encode("quay.io/ns/img:v1"));
    REQUIRE(layout_ref);
    CHECK(layout_ref->digest == m.digest);
    REQUIRE(store->collect_garbage());
    CHECK(store->has(digest_of(layer), 11));
    CHECK(!store->has(digest_of("orphan"), -1));
  }
}
