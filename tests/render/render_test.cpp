#include "render/render.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <atomic>
#include <string>
#include <vector>

using opm::Errc;
using opm::catalog::Bundle;
using opm::catalog::DeclarativeConfig;
using opm::render::Options;
using opm::render::render;

namespace {

// Image references rendered by a stand-in: "img/<name>" becomes a bundle of that name;
// "bad/<name>" fails, as does every image when bundle images are not allowed.
Options stand_in_images(std::size_t jobs, std::atomic<int>* calls = nullptr) {
  Options o;
  o.jobs = jobs;
  o.render_image =
      [calls](const std::string& ref,
              const opm::render::AllowedImages& allowed) -> opm::Result<DeclarativeConfig> {
    if (calls != nullptr) {
      calls->fetch_add(1);
    }
    if (!allowed.bundle) {
      return opm::util::fail(Errc::not_allowed, "cannot render bundle image: not allowed");
    }
    if (ref.starts_with("bad/")) {
      return opm::util::fail(Errc::invalid, "cannot pull " + ref);
    }
    DeclarativeConfig cfg;
    Bundle b;
    b.package = "pkg";
    b.name = "same";
    b.image = ref;
    cfg.bundles.push_back(std::move(b));
    return cfg;
  };
  return o;
}

std::vector<std::string> images(const DeclarativeConfig& cfg) {
  std::vector<std::string> out;
  for (const auto& b : cfg.bundles) {
    out.push_back(b.image);
  }
  return out;
}

} // namespace

TEST_CASE("render keeps the argument order whatever the number of jobs") {
  std::vector<std::string> refs;
  for (int i = 0; i < 40; ++i) {
    refs.push_back("img/" + std::to_string((i * 7) % 40));
  }
  for (std::size_t jobs : {1U, 4U, 16U}) {
    auto cfg = render(refs, stand_in_images(jobs));
    REQUIRE(cfg);
    CHECK(images(*cfg) == refs);
  }
}

TEST_CASE("render reports the first failing reference in argument order") {
  std::vector<std::string> refs = {"img/a", "img/b", "bad/first", "img/c", "bad/second"};
  for (std::size_t jobs : {1U, 2U, 8U}) {
    auto cfg = render(refs, stand_in_images(jobs));
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() == "render reference \"bad/first\": cannot pull bad/first");
  }
  std::atomic<int> calls{0};
  CHECK_FALSE(render(refs, stand_in_images(1, &calls)));
  CHECK(calls.load() == 3);
}

TEST_CASE("render tells progress for two references or more, and once more at the end") {
  auto options = stand_in_images(3);
  std::vector<std::pair<std::size_t, std::size_t>> told;
  options.progress = [&](std::size_t done, std::size_t total) { told.emplace_back(done, total); };
  REQUIRE(render({"img/a", "img/b", "img/c"}, options));
  REQUIRE(told.size() == 3);
  CHECK(told[0] == std::pair<std::size_t, std::size_t>{1, 3});
  CHECK(told[1] == std::pair<std::size_t, std::size_t>{2, 3});
  CHECK(told[2] == std::pair<std::size_t, std::size_t>{3, 3});

  told.clear();
  REQUIRE_FALSE(render({"img/a", "bad/x"}, options));
  REQUIRE_FALSE(told.empty());
  CHECK(told.back() == std::pair<std::size_t, std::size_t>{2, 2});

  told.clear();
  REQUIRE(render({"img/a"}, options));
  CHECK(told.empty());
}

TEST_CASE("render hands the bundle-image mask to the image renderer") {
  auto options = stand_in_images(2);
  options.allow_bundle_images = false;
  auto cfg = render({"img/a"}, options);
  REQUIRE_FALSE(cfg);
  CHECK(cfg.error().code() == Errc::not_allowed);
  CHECK(cfg.error().message() ==
        "render reference \"img/a\": cannot render bundle image: not allowed");
}

TEST_CASE("normalize_for_output orders related images as Go's sort.Slice does, ties included") {
  DeclarativeConfig cfg;
  Bundle bundle;
  for (int i = 0; i < 16; ++i) {
    bundle.related_images.push_back(
        {fmt::format("name-{:02}", i), fmt::format("quay.io/x/img-{}@sha256:0", (i * 5) % 4)});
  }
  cfg.bundles.push_back(bundle);
  opm::render::normalize_for_output(cfg);
  // The order upstream's render leaves them in (sort.Slice by image, Go 1.19).
  const std::vector<int> expected{8, 4, 12, 0, 13, 5, 1, 9, 6, 10, 2, 14, 7, 11, 3, 15};
  std::vector<int> names;
  for (const auto& r : cfg.bundles[0].related_images) {
    names.push_back(std::stoi(r.name.substr(5)));
  }
  CHECK(names == expected);
}
