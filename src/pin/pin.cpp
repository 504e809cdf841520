#include "pin/pin.hpp"

#include "util/parallel.hpp"
#include "util/reference.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

namespace opm::pin {

namespace {

struct Lookup {
  std::string canonical; // what is asked for; empty: nothing to ask (a digest, or unreadable)
  std::optional<Result<std::string>> digest{};
};

// Each distinct reference of the catalog that names no digest, with what to ask for.
std::map<std::string, Lookup> lookups_of(const catalog::DeclarativeConfig& cfg) {
  std::map<std::string, Lookup> out;
  auto add = [&out](const std::string& image) {
    if (image.empty() || out.contains(image)) {
      return;
    }
    auto ref = util::parse_reference(image);
    if (ref && !ref->digest.empty()) {
      return;
    }
    Lookup lookup;
    if (ref) {
      lookup.canonical = ref->with_default_tag().to_string();
    } else {
      lookup.digest = std::unexpected(std::move(ref).error());
    }
    out.emplace(image, std::move(lookup));
  };
  for (const auto& b : cfg.bundles) {
    add(b.image);
    for (const auto& r : b.related_images) {
      add(r.image);
    }
  }
  return out;
}

void resolve_all(std::map<std::string, Lookup>& lookups, const Resolve& resolve, std::size_t jobs) {
  std::vector<Lookup*> todo;
  for (auto& [image, lookup] : lookups) {
    if (!lookup.digest) {
      todo.push_back(&lookup);
    }
  }
  util::run_indexed(
      todo.size(), std::clamp<std::size_t>(jobs, 1, 64),
      [&todo, &resolve](std::size_t i) { todo[i]->digest.emplace(resolve(todo[i]->canonical)); });
}

} // namespace

std::string pinned(const std::string& text, const std::string& digest) {
  std::string name = text;
  if (auto ref = util::parse_reference(text); ref && !ref->tag.empty()) {
    name.resize(name.size() - ref->tag.size() - 1);
  }
  return name + "@" + digest;
}

Result<void> pin_images(catalog::DeclarativeConfig& cfg, const Resolve& resolve,
                        const Options& options) {
  auto lookups = lookups_of(cfg);
  resolve_all(lookups, resolve, options.jobs);
  // The new text of each reference, checked in catalog order before anything changes.
  std::map<std::string, std::string> replacement;
  auto plan = [&](const catalog::Bundle& b, const std::string& image) -> Result<void> {
    auto found = lookups.find(image);
    if (found == lookups.end() || replacement.contains(image)) {
      return {};
    }
    const auto& digest = *found->second.digest;
    if (digest) {
      replacement.emplace(image, pinned(image, *digest));
      return {};
    }
    auto failure = fmt::format("bundle {} image {}: {}", util::go_quote(b.name),
                               util::go_quote(image), digest.error().message());
    if (!options.skip_unresolved) {
      return util::fail(digest.error().code(), failure, b.where);
    }
    if (options.warn) {
      options.warn("leaving unresolved " + failure);
    }
    replacement.emplace(image, image);
    return {};
  };
  for (const auto& b : cfg.bundles) {
    OPM_TRY(plan(b, b.image));
    for (const auto& r : b.related_images) {
      OPM_TRY(plan(b, r.image));
    }
  }
  auto rewrite = [&replacement](std::string& image) {
    if (auto found = replacement.find(image); found != replacement.end()) {
      image = found->second;
    }
  };
  for (auto& b : cfg.bundles) {
    rewrite(b.image);
    for (auto& r : b.related_images) {
      rewrite(r.image);
    }
  }
  return {};
}

} // namespace opm::pin
