#include "cmd/commands.hpp"
#include "registry/cache_dir.hpp"
#include "registry/options.hpp"
#include "util/go_duration.hpp"
#include "util/log.hpp"

#include <CLI/CLI.hpp>
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <memory>
#include <optional>

namespace opm::cmd {

namespace {

using registry::CacheClock;

constexpr std::string_view k_cache_long =
    "The cache keeps the image blobs opm pulls, the bundles it renders from them and the "
    "layers of the catalog images it builds, in $OLM_CACHE_DIR/images, else "
    "$XDG_CACHE_HOME/opm, else ~/.cache/opm. It only grows: these commands say what it holds "
    "and remove what has not been used for a while. They are safe while other opm processes "
    "use the cache: pruning waits until they are done, and they wait for the pruning.";

constexpr std::string_view k_prune_long =
    "Remove cache entries (blobs, rendered bundles, catalog layers) not used for longer than "
    "--older-than, or every entry with --all. An entry's last use is renewed each time opm "
    "finds it in the cache. A duration is Go's (\"720h\", \"90m\", \"1h30m\") or a number of "
    "days (\"30d\").";

// 12.3 MiB: the size in the largest binary unit that keeps it at 1 or more.
std::string human_bytes(std::uint64_t bytes) {
  constexpr std::array<std::string_view, 6> units{"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  auto value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < units.size()) {
    value /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", value, units[unit]);
}

std::string size_text(std::uint64_t bytes) {
  return fmt::format("{} ({} bytes)", human_bytes(bytes), bytes);
}

// "3 entries, 1.2 KiB (1234 bytes)"
std::string amount_text(std::size_t entries, std::uint64_t bytes) {
  return fmt::format("{} {}, {}", entries, entries == 1 ? "entry" : "entries", size_text(bytes));
}

// 40d3h, 5h12m, 7m: days and hours, hours and minutes, or minutes.
std::string age_text(CacheClock::duration age) {
  auto minutes =
      std::max<std::int64_t>(std::chrono::duration_cast<std::chrono::minutes>(age).count(), 0);
  auto hours = minutes / 60;
  if (hours >= 24) {
    return fmt::format("{}d{}h", hours / 24, hours % 24);
  }
  if (hours > 0) {
    return fmt::format("{}h{}m", hours, minutes % 60);
  }
  return fmt::format("{}m", minutes);
}

Result<std::filesystem::path> cache_dir(const Context& ctx) {
  auto dir = registry::default_cache_dir(ctx.env.vars);
  if (dir.empty()) {
    return util::fail(Errc::invalid,
                      "no cache directory: none of OLM_CACHE_DIR, XDG_CACHE_HOME and HOME is set");
  }
  return dir;
}

Result<void> run_info(Context& ctx) {
  auto dir = OPM_TRY(cache_dir(ctx));
  auto inventory = OPM_TRY(registry::cache_inventory(dir));
  ctx.out << "directory: " << dir.string() << "\n";
  ctx.out << "size: " << size_text(inventory.total_bytes) << "\n";
  ctx.out << "entries: " << inventory.entries.size() << "\n";
  auto oldest =
      std::min_element(inventory.entries.begin(), inventory.entries.end(),
                       [](const auto& a, const auto& b) { return a.last_used < b.last_used; });
  if (oldest == inventory.entries.end()) {
    ctx.out << "oldest: none\n";
    return {};
  }
  auto when = std::chrono::time_point_cast<std::chrono::seconds>(oldest->last_used);
  ctx.out << fmt::format("oldest: {} (last used {:%Y-%m-%dT%H:%M:%SZ})\n",
                         age_text(CacheClock::now() - oldest->last_used), when);
  return {};
}

// Go's time.ParseDuration, or a whole number of days ("30d").
std::optional<CacheClock::duration> parse_age(std::string_view text) {
  if (text.ends_with('d')) {
    std::int64_t days = -1;
    auto digits = text.substr(0, text.size() - 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), days);
    if (ec != std::errc{} || end != digits.data() + digits.size() || days < 0 || days > 100'000) {
      return std::nullopt;
    }
    return std::chrono::hours(24 * days);
  }
  auto parsed = util::parse_go_duration(text);
  if (!parsed || parsed->count() < 0) {
    return std::nullopt;
  }
  return std::chrono::duration_cast<CacheClock::duration>(*parsed);
}

struct PruneFlags {
  std::string older_than;
  bool all = false;
  const CLI::Option* older_than_flag = nullptr;
  const CLI::Option* all_flag = nullptr;
};

Result<std::optional<CacheClock::time_point>> prune_cutoff(const Context& ctx,
                                                           const PruneFlags& f) {
  bool by_age = ctx.meta.changed(f.older_than_flag);
  if (!by_age && !f.all) {
    return util::fail(Errc::usage,
                      "at least one of the flags in the group [older-than all] is required");
  }
  if (f.all) {
    return std::optional<CacheClock::time_point>{};
  }
  auto age = parse_age(f.older_than);
  if (!age) {
    return util::fail(Errc::usage,
                      fmt::format("invalid argument \"{}\" for \"--older-than\" flag: not a "
                                  "duration such as 720h, 90m or 30d",
                                  f.older_than));
  }
  return std::optional<CacheClock::time_point>{CacheClock::now() - *age};
}

Result<void> run_prune(Context& ctx, const PruneFlags& f) {
  auto cutoff = OPM_TRY(prune_cutoff(ctx, f));
  auto dir = OPM_TRY(cache_dir(ctx));
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    ctx.out << "removed: " << amount_text(0, 0) << "\nkept: " << amount_text(0, 0) << "\n";
    return {};
  }
  auto held = OPM_TRY(registry::CacheUse::exclusive(dir, [&ctx, &dir] {
    ctx.err << util::logrus_line(
        "info", fmt::format("waiting for other opm processes using {} to finish", dir.string()),
        ctx.err_is_tty);
    ctx.err.flush();
  }));
  auto removed = OPM_TRY(registry::prune_cache(dir, cutoff));
  auto left = OPM_TRY(registry::cache_inventory(dir));
  ctx.out << "removed: " << amount_text(removed.removed_entries, removed.removed_bytes) << "\n";
  ctx.out << "kept: " << amount_text(left.entries.size(), left.total_bytes) << "\n";
  return {};
}

void add_cache_info(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* sub = add_command(parent, ctx,
                          {.use = "info",
                           .short_text = "Show the cache's size, entries and oldest entry",
                           .long_text = "Show where the cache is, its size (all of it, in "
                                        "binary units and in bytes), its number of entries and "
                                        "how long ago its least recently used entry was last "
                                        "used.",
                           .args = Args::none()});
  sub->callback([&ctx, &chosen, sub] {
    chosen.command = sub;
    chosen.style = FatalStyle::logrus;
    chosen.run = [&ctx]() -> Result<void> { return run_info(ctx); };
  });
}

void add_cache_prune(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<PruneFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = "prune",
                           .short_text = "Remove cache entries not used for a while",
                           .long_text = std::string(k_prune_long),
                           .example = "  opm alpha cache prune --older-than 720h\n"
                                      "  opm alpha cache prune --older-than 30d\n"
                                      "  opm alpha cache prune --all",
                           .args = Args::none()});
  flags->older_than_flag = sub->add_option("--older-than", flags->older_than,
                                           "remove entries not used for this long (720h, 30d)")
                               ->type_name("duration");
  flags->all_flag = sub->add_flag("--all", flags->all, "remove every entry");
  ctx.meta.mutually_exclusive(sub, {"older-than", "all"});
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.style = FatalStyle::logrus;
    chosen.run = [&ctx, flags]() -> Result<void> { return run_prune(ctx, *flags); };
  });
}

} // namespace

void add_alpha_cache(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* group = add_command(parent, ctx,
                            {.use = "cache",
                             .short_text = "Inspect and prune opm's image cache",
                             .long_text = std::string(k_cache_long),
                             .runnable = false});
  add_cache_info(*group, ctx, chosen);
  add_cache_prune(*group, ctx, chosen);
}

} // namespace opm::cmd
