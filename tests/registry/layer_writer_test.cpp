#include "registry/digest.hpp"
#include "registry/layer_writer.hpp"
#include "support/temp_dir.hpp"
#include "util/fs.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

using namespace opm::registry;
namespace fs = std::filesystem;

namespace {

struct ReadEntry {
  std::string name;
  unsigned mode = 0;
  long long uid = -1;
  long long gid = -1;
  long long mtime = -1;
  std::string link;
  std::string data;
};

// Reads a tar or tar.gz back with libarchive, entry by entry.
std::vector<ReadEntry> read_back(const fs::path& file) {
  std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_new(), archive_read_free);
  archive_read_support_filter_all(a.get());
  archive_read_support_format_all(a.get());
  REQUIRE(archive_read_open_filename(a.get(), file.c_str(), 1 << 16) == ARCHIVE_OK);
  std::vector<ReadEntry> out;
  archive_entry* e = nullptr;
  while (archive_read_next_header(a.get(), &e) == ARCHIVE_OK) {
    ReadEntry r;
    r.name = archive_entry_pathname(e);
    r.mode = archive_entry_mode(e) & 07777;
    r.uid = archive_entry_uid(e);
    r.gid = archive_entry_gid(e);
    r.mtime = archive_entry_mtime(e);
    if (const char* l = archive_entry_symlink(e)) {
      r.link = l;
    }
    char buffer[4096];
    la_ssize_t n = 0;
    while ((n = archive_read_data(a.get(), buffer, sizeof buffer)) > 0) {
      r.data.append(buffer, static_cast<std::size_t>(n));
    }
    out.push_back(std::move(r));
  }
  return out;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

} // namespace

TEST_SUITE("registry.layer_writer") {
  TEST_CASE("entries come back with their names, modes, root owner, one time, and bytes") {
    opm::test::TempDir tmp;
    write(tmp.path() / "src/a.yaml", "a: 1\n");
    std::string long_name = "configs/" + std::string(120, 'x') + "/catalog.json";
    std::vector<LayerEntry> entries = {
        {"configs", LayerEntry::Type::directory, 0755, {}, {}, {}},
        {"configs/a.yaml", LayerEntry::Type::file, 0600, tmp.path() / "src/a.yaml", {}, {}},
        {long_name, LayerEntry::Type::file, 0644, {}, "{}", {}},
        {"configs/link", LayerEntry::Type::symlink, 0777, {}, {}, "a.yaml"},
        {"tmp", LayerEntry::Type::directory, 01777, {}, {}, {}},
    };
    auto layer = write_layer(entries, 1700000000, tmp.path() / "l.tar.gz", "m");
    REQUIRE(layer);
    auto back = read_back(tmp.path() / "l.tar.gz");
    REQUIRE(back.size() == 5);
    CHECK(back[0].name == "configs/");
    CHECK(back[0].mode == 0755);
    CHECK(back[1].name == "configs/a.yaml");
    CHECK(back[1].mode == 0600);
    CHECK(back[1].data == "a: 1\n");
    CHECK(back[2].name == long_name); // past ustar's 100 bytes: a PAX path record
    CHECK(back[2].data == "{}");
    CHECK(back[3].link == "a.yaml");
    CHECK(back[4].mode == 01777);
    for (const auto& e : back) {
      CHECK(e.uid == 0);
      CHECK(e.gid == 0);
      CHECK(e.mtime == 1700000000);
    }
    CHECK(layer->descriptor.media_type == "m");
    CHECK(layer->descriptor.size ==
          static_cast<std::int64_t>(fs::file_size(tmp.path() / "l.tar.gz")));
    CHECK(layer->descriptor.digest == digest_of(*opm::util::read_file(tmp.path() / "l.tar.gz")));
  }

  TEST_CASE("the same entries give the same digest; the diff id is the plain tar's") {
    opm::test::TempDir tmp;
    std::vector<LayerEntry> entries = {
        {"d", LayerEntry::Type::directory, 0755, {}, {}, {}},
        {"d/f", LayerEntry::Type::file, 0644, {}, std::string(5000, 'z'), {}},
    };
    auto one = write_layer(entries, 0, tmp.path() / "1.tar.gz", "m");
    auto two = write_layer(entries, 0, tmp.path() / "2.tar.gz", "m");
    REQUIRE(one);
    REQUIRE(two);
    CHECK(one->descriptor.digest == two->descriptor.digest);
    REQUIRE(write_tar(entries, 0, tmp.path() / "plain.tar"));
    CHECK(one->diff_id == digest_of(*opm::util::read_file(tmp.path() / "plain.tar")));
    auto later = write_layer(entries, 1, tmp.path() / "3.tar.gz", "m");
    REQUIRE(later);
    CHECK(later->descriptor.digest != one->descriptor.digest);
  }

  TEST_CASE("a tree is listed parents first, then in path order, with its modes") {
    opm::test::TempDir tmp;
    write(tmp.path() / "t/b/x.json", "x");
    write(tmp.path() / "t/a.yaml", "a");
    fs::permissions(tmp.path() / "t/a.yaml", fs::perms(0640));
    fs::permissions(tmp.path() / "t/b", fs::perms(0750));
    auto entries = tree_entries(tmp.path() / "t", "tmp/cache", 0700, {{"tmp", 01777}});
    REQUIRE(entries);
    std::vector<std::string> names;
    for (const auto& e : *entries) {
      names.push_back(e.name);
    }
    CHECK(names == std::vector<std::string>{"tmp", "tmp/cache", "tmp/cache/a.yaml", "tmp/cache/b",
                                            "tmp/cache/b/x.json"});
    CHECK((*entries)[0].mode == 01777);
    CHECK((*entries)[1].mode == 0700);
    CHECK((*entries)[2].mode == 0640);
    CHECK((*entries)[3].mode == 0750);
    CHECK((*entries)[3].type == LayerEntry::Type::directory);
  }
  TEST_CASE("an entry given an owner is written with that uid and gid") {
    opm::test::TempDir tmp;
    LayerEntry cache{"tmp/cache", LayerEntry::Type::directory, 0750, {}, {}, {}};
    cache.uid = 1001;
    cache.gid = 7;
    std::vector<LayerEntry> entries = {{"tmp", LayerEntry::Type::directory, 01777, {}, {}, {}},
                                       cache};
    REQUIRE(write_layer(entries, 0, tmp.path() / "l.tar.gz", "m"));
    auto back = read_back(tmp.path() / "l.tar.gz");
    REQUIRE(back.size() == 2);
    CHECK(back[0].uid == 0);
    CHECK(back[0].gid == 0);
    CHECK(back[1].uid == 1001);
    CHECK(back[1].gid == 7);
  }

  TEST_CASE("a symlink in a tree keeps its own name and its target as written") {
    opm::test::TempDir tmp;
    write(tmp.path() / "t/opm", "binary");
    fs::create_symlink("opm", tmp.path() / "t/grpc_health_probe");
    auto entries = tree_entries(tmp.path() / "t", "bin", 0755);
    REQUIRE(entries);
    REQUIRE(entries->size() == 3);
    CHECK((*entries)[1].name == "bin/grpc_health_probe");
    CHECK((*entries)[1].type == LayerEntry::Type::symlink);
    CHECK((*entries)[1].link == "opm");
    CHECK((*entries)[2].name == "bin/opm");
    CHECK((*entries)[2].type == LayerEntry::Type::file);
  }
}
