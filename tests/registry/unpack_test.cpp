#include "registry/detail/unpack.hpp"
#include "support/temp_dir.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>

using namespace opm::registry;
namespace fs = std::filesystem;

namespace {

struct Entry {
  // type: f file, d dir, l symlink, h hardlink, c char device, p fifo
  Entry(std::string n, char t = 'f', std::string d = {}, std::string l = {}, int m = 0644,
        std::size_t z = 0)
      : name(std::move(n)), type(t), data(std::move(d)), link(std::move(l)), mode(m), zeros(z) {}
  std::string name;
  char type;
  std::string data;
  std::string link;
  int mode;
  std::size_t zeros;
};

enum class Compression { none, gzip, zstd };

void make_tar(const fs::path& out, const std::vector<Entry>& entries,
              Compression c = Compression::gzip) {
  archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  if (c == Compression::gzip) {
    archive_write_add_filter_gzip(a);
  } else if (c == Compression::zstd) {
    archive_write_add_filter_zstd(a);
  }
  REQUIRE(archive_write_open_filename(a, out.c_str()) == ARCHIVE_OK);
  for (const auto& e : entries) {
    archive_entry* ae = archive_entry_new();
    archive_entry_set_pathname(ae, e.name.c_str());
    archive_entry_set_perm(ae, static_cast<mode_t>(e.mode));
    std::size_t size = e.zeros != 0 ? e.zeros : e.data.size();
    switch (e.type) {
    case 'd':
      archive_entry_set_filetype(ae, AE_IFDIR);
      break;
    case 'l':
      archive_entry_set_filetype(ae, AE_IFLNK);
      archive_entry_set_symlink(ae, e.link.c_str());
      break;
    case 'h':
      archive_entry_set_filetype(ae, AE_IFREG);
      archive_entry_set_hardlink(ae, e.link.c_str());
      break;
    case 'c':
      archive_entry_set_filetype(ae, AE_IFCHR);
      archive_entry_set_rdev(ae, makedev(1, 3));
      break;
    case 'p':
      archive_entry_set_filetype(ae, AE_IFIFO);
      break;
    default:
      archive_entry_set_filetype(ae, AE_IFREG);
      archive_entry_set_size(ae, static_cast<la_int64_t>(size));
    }
    archive_write_header(a, ae);
    if (e.type == 'f') {
      if (e.zeros != 0) {
        std::string block(1 << 16, '\0');
        for (std::size_t left = e.zeros; left > 0;) {
          std::size_t n = std::min(left, block.size());
          archive_write_data(a, block.data(), n);
          left -= n;
        }
      } else {
        archive_write_data(a, e.data.data(), e.data.size());
      }
    }
    archive_entry_free(ae);
  }
  archive_write_close(a);
  archive_write_free(a);
}

// A test's directory, with the layers it writes there.
struct Scratch : opm::test::TempDir {
  fs::path layer(const std::string& name, const std::vector<Entry>& entries,
                 Compression c = Compression::gzip) const {
    fs::path p = path() / name;
    make_tar(p, entries, c);
    return p;
  }
  [[nodiscard]] std::vector<std::string> leftovers() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path())) {
      if (e.path().filename().string().find(".partial-") != std::string::npos) {
        out.push_back(e.path().filename().string());
      }
    }
    return out;
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

LayerFile lf(const fs::path& p, std::string digest = "sha256:l1") {
  return {p, std::move(digest), "application/vnd.oci.image.layer.v1.tar+gzip"};
}

Log quiet;

} // namespace

TEST_SUITE("registry unpack") {
  TEST_CASE("extracts files, directories and symlinks, re-rooting absolute names") {
    Scratch s;
    auto l = s.layer("l.tgz", {{"manifests/", 'd', "", "", 0555},
                               {"./manifests/a.yaml", 'f', "a: 1\n", "", 0444},
                               {"/metadata/annotations.yaml", 'f', "x", "", 04755},
                               {"manifests/link", 'l', "", "a.yaml"}});
    fs::path out = s.path() / "out";
    REQUIRE(unpack_layers({lf(l)}, out, {}, quiet));
    CHECK(slurp(out / "manifests/a.yaml") == "a: 1\n");
    CHECK(slurp(out / "metadata/annotations.yaml") == "x");
    CHECK(fs::read_symlink(out / "manifests/link") == "a.yaml");
    struct stat st {};
    ::stat((out / "manifests/a.yaml").c_str(), &st);
    CHECK((st.st_mode & 07777) == 0644);
    ::stat((out / "metadata/annotations.yaml").c_str(), &st);
    CHECK((st.st_mode & 07777) == 0755);
    ::stat((out / "manifests").c_str(), &st);
    CHECK((st.st_mode & 0700) == 0700);
    CHECK(s.leftovers().empty());
  }

  TEST_CASE("reads plain, gzip and zstd layers alike") {
    Scratch s;
    for (auto c : {Compression::none, Compression::gzip, Compression::zstd}) {
      auto l = s.layer("l" + std::to_string(static_cast<int>(c)), {{"f", 'f', "body"}}, c);
      fs::path out = s.path() / ("out" + std::to_string(static_cast<int>(c)));
      REQUIRE(unpack_layers({lf(l)}, out, {}, quiet));
      CHECK(slurp(out / "f") == "body");
    }
  }

  TEST_CASE("refuses names that climb above the root and leaves nothing behind") {
    Scratch s;
    auto l = s.layer("l.tgz", {{"ok", 'f', "x"}, {"../../../../escape-dotdot", 'f', "bad"}});
    fs::path out = s.path() / "out";
    auto r = unpack_layers({lf(l, "sha256:bad")}, out, {}, quiet);
    REQUIRE(!r);
    CHECK(r.error().message() ==
          "layer sha256:bad: entry \"../../../../escape-dotdot\" escapes the target directory");
    CHECK(!fs::exists(out));
    CHECK(!fs::exists(s.path().parent_path() / "escape-dotdot"));
    CHECK(s.leftovers().empty());
  }

  TEST_CASE("follows an absolute symlink only inside the root") {
    Scratch s;
    fs::path outside = s.path() / "outside";
    fs::create_directories(outside);
    auto l = s.layer("l.tgz", {{"manifests/out", 'l', "", outside.string()},
                               {"manifests/out/escape-symlink", 'f', "inside"}});
    fs::path out = s.path() / "out";
    REQUIRE(unpack_layers({lf(l)}, out, {}, quiet));
    CHECK(fs::is_empty(outside));
    CHECK(slurp(out / outside.relative_path() / "escape-symlink") == "inside");
  }

  TEST_CASE("refuses a relative symlink that climbs out") {
    Scratch s;
    auto l = s.layer("l.tgz", {{"manifests/rel", 'l', "", "../../../../tmp"},
                               {"manifests/rel/escape", 'f', "x"}});
    auto r = unpack_layers({lf(l, "sha256:s")}, s.path() / "out", {}, quiet);
    REQUIRE(!r);
    CHECK(r.error().message() ==
          "layer sha256:s: entry \"manifests/rel/escape\" escapes the target directory");
    CHECK(s.leftovers().empty());
  }

  TEST_CASE("hard links must point at a file extracted earlier") {
    Scratch s;
    auto good = s.layer("g.tgz", {{"a", 'f', "x"}, {"b", 'h', "", "a"}});
    REQUIRE(unpack_layers({lf(good)}, s.path() / "good", {}, quiet));
    CHECK(slurp(s.path() / "good/b") == "x");
    auto bad = s.layer("b.tgz", {{"manifests/hard", 'h', "", "/etc/passwd"}});
    auto r = unpack_layers({lf(bad, "sha256:h")}, s.path() / "bad", {}, quiet);
    REQUIRE(!r);
    CHECK(r.error().message() == "layer sha256:h: hard link \"manifests/hard\" to "
                                 "\"/etc/passwd\": the target is not a file extracted earlier");
    auto climb = s.layer("c.tgz", {{"x", 'h', "", "../../etc/passwd"}});
    CHECK(unpack_layers({lf(climb, "sha256:c")}, s.path() / "climb", {}, quiet).error().message() ==
          "layer sha256:c: entry \"../../etc/passwd\" escapes the target directory");
  }

  TEST_CASE("skips devices and FIFOs") {
    Scratch s;
    auto l = s.layer("l.tgz", {{"chardev", 'c'}, {"fifo", 'p'}, {"f", 'f', "x"}});
    fs::path out = s.path() / "out";
    REQUIRE(unpack_layers({lf(l)}, out, {}, quiet));
    CHECK(!fs::exists(out / "chardev"));
    CHECK(!fs::exists(out / "fifo"));
    CHECK(fs::exists(out / "f"));
  }

  TEST_CASE("applies whiteouts and opaque directories to lower layers only") {
    Scratch s;
    auto lower = s.layer("lower.tgz", {{"manifests/keep.yaml", 'f', "k"},
                                       {"manifests/delete-me.yaml", 'f', "d"},
                                       {"olddir/stale.yaml", 'f', "s"},
                                       {"olddir/sub/deep.yaml", 'f', "s"}});
    auto upper = s.layer("upper.tgz", {{"olddir/early.yaml", 'f', "e"},
                                       {"manifests/.wh.delete-me.yaml", 'f', ""},
                                       {"olddir/.wh..wh..opq", 'f', ""},
                                       {"olddir/fresh.yaml", 'f', "f"},
                                       {"manifests/.wh.missing", 'f', ""}});
    fs::path out = s.path() / "out";
    REQUIRE(unpack_layers({lf(lower), lf(upper)}, out, {}, quiet));
    std::vector<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(out)) {
      files.push_back(fs::relative(e.path(), out).string());
    }
    std::sort(files.begin(), files.end());
    CHECK(files == std::vector<std::string>{"manifests", "manifests/keep.yaml", "olddir",
                                            "olddir/early.yaml", "olddir/fresh.yaml"});
  }

  TEST_CASE("a bare whiteout is invalid") {
    Scratch s;
    auto l = s.layer("l.tgz", {{"dir/.wh.", 'f', ""}});
    CHECK(unpack_layers({lf(l, "sha256:w")}, s.path() / "out", {}, quiet).error().message() ==
          "layer sha256:w: invalid whiteout entry \"dir/.wh.\"");
  }

  TEST_CASE("enforces size, entry and ratio limits") {
    Scratch s;
    auto l = s.layer("l.tgz", {{"a", 'f', std::string(100, 'a')}, {"b", 'f', "b"}});
    UnpackLimits file_limit;
    file_limit.max_file_bytes = 50;
    CHECK(
        unpack_layers({lf(l, "sha256:z")}, s.path() / "o1", file_limit, quiet).error().message() ==
        "layer sha256:z: unpack limit exceeded: file \"a\" is larger than 50 bytes");
    UnpackLimits entries;
    entries.max_entries = 1;
    CHECK(unpack_layers({lf(l, "sha256:z")}, s.path() / "o2", entries, quiet).error().message() ==
          "layer sha256:z: unpack limit exceeded: more than 1 entries");
    UnpackLimits total;
    total.max_total_bytes = 100;
    CHECK(unpack_layers({lf(l, "sha256:z")}, s.path() / "o3", total, quiet).error().message() ==
          "layer sha256:z: unpack limit exceeded: more than 100 bytes in total");
    auto bomb = s.layer("bomb.tgz", {{"zeros", 'f', "", "", 0644, 8U << 20}});
    UnpackLimits ratio;
    ratio.ratio_floor_bytes = 1U << 20;
    CHECK(unpack_layers({lf(bomb, "sha256:b")}, s.path() / "o4", ratio, quiet).error().message() ==
          "layer sha256:b: unpack limit exceeded: compression ratio above 200:1");
    CHECK(s.leftovers().empty());
    CHECK(!fs::exists(s.path() / "o4"));
  }

  TEST_CASE("a layer that is not a tar stream is named with its media type") {
    Scratch s;
    std::ofstream(s.path() / "junk") << std::string(2048, 'j');
    auto r = unpack_layers({{s.path() / "junk", "sha256:j", "application/x-foo"}}, s.path() / "out",
                           {}, quiet);
    REQUIRE(!r);
    CHECK(r.error().message() == "layer sha256:j (application/x-foo) is not a tar archive");
  }

  TEST_CASE("keeps only the requested subtrees") {
    Scratch s;
    auto l = s.layer("l.tgz", {{"manifests/a", 'f', "a"},
                               {"metadata/b", 'f', "b"},
                               {"usr/bin/opm", 'f', "bin"},
                               {"configs/x/catalog.json", 'f', "{}"}});
    fs::path out = s.path() / "out";
    REQUIRE(unpack_layers({lf(l)}, out, {}, quiet, {"manifests", "configs/x"}));
    CHECK(fs::exists(out / "manifests/a"));
    CHECK(fs::exists(out / "configs/x/catalog.json"));
    CHECK(!fs::exists(out / "metadata"));
    CHECK(!fs::exists(out / "usr"));
  }

  TEST_CASE("unpacks into an existing empty directory but not a full one") {
    Scratch s;
    auto l = s.layer("l.tgz", {{"f", 'f', "x"}});
    fs::create_directory(s.path() / "empty");
    REQUIRE(unpack_layers({lf(l)}, s.path() / "empty", {}, quiet));
    CHECK(fs::exists(s.path() / "empty/f"));
    auto r = unpack_layers({lf(l)}, s.path() / "empty", {}, quiet);
    REQUIRE(!r);
    CHECK(r.error().message() == "unpack destination " + (s.path() / "empty").string() +
                                     " exists and is not an empty directory");
  }
}
