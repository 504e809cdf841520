#pragma once

#include "util/error.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace opm::registry {

enum class LogLevel { debug = 0, info = 1, warn = 2 };

// Where the client reports what it does. The default sink discards; nothing is formatted
// unless a sink is set and the level is enabled. Messages never carry secrets.
struct Log {
  std::function<void(LogLevel, std::string_view)> sink;
  LogLevel level = LogLevel::warn;

  [[nodiscard]] bool enabled(LogLevel l) const { return sink && l >= level; }
  template <typename... Args>
  void write(LogLevel l, fmt::format_string<Args...> f, Args&&... args) const {
    if (enabled(l)) {
      sink(l, fmt::format(f, std::forward<Args>(args)...));
    }
  }
  template <typename... Args> void debug(fmt::format_string<Args...> f, Args&&... args) const {
    write(LogLevel::debug, f, std::forward<Args>(args)...);
  }
  template <typename... Args> void info(fmt::format_string<Args...> f, Args&&... args) const {
    write(LogLevel::info, f, std::forward<Args>(args)...);
  }
  template <typename... Args> void warn(fmt::format_string<Args...> f, Args&&... args) const {
    write(LogLevel::warn, f, std::forward<Args>(args)...);
  }
};

// Unpack limits against hostile layers: decompression bombs, huge files, entry floods.
struct UnpackLimits {
  std::uint64_t max_total_bytes = 8ULL << 30;
  std::uint64_t max_file_bytes = 2ULL << 30;
  std::uint64_t max_entries = 1'000'000;
  std::uint64_t max_ratio = 200;                  // uncompressed : compressed
  std::uint64_t ratio_floor_bytes = 256ULL << 20; // the ratio counts only past this size
};

// Progress of one blob transfer; called from worker threads.
struct Progress {
  std::string_view ref;
  std::string_view digest;
  std::uint64_t done = 0;
  std::uint64_t total = 0;
};

struct Timeouts {
  std::chrono::milliseconds connect{30'000};
  std::chrono::milliseconds request{120'000}; // manifests, tokens, pings
  std::chrono::seconds stall{60};             // abort transfers below 1 KiB per this period
};

struct RetryPolicy {
  int max_attempts = 5;
  std::chrono::milliseconds initial_delay{1000};
  std::chrono::milliseconds max_delay{30'000};
  std::chrono::milliseconds max_retry_after{60'000};
  int host_failure_budget = 10; // consecutive failed attempts before giving up on a host
};

struct Options {
  bool use_http = false;        // --use-http: the registry may be plain HTTP
  bool skip_tls_verify = false; // --skip-tls-verify: HTTPS without verification
  std::string ca_file;          // extra PEM roots added to the default ones
  std::string platform;         // "os/arch[/variant]"; empty = linux/<host arch>
  // Blob cache: an OCI layout. Empty and !cache_disabled = the caller's default;
  // cache_disabled = a private temporary cache removed when the puller goes away.
  std::filesystem::path cache_dir;
  bool cache_disabled = false;
  std::string registries_conf; // explicit registries.conf; empty = environment and defaults
  Timeouts timeouts;
  RetryPolicy retry;
  std::size_t jobs = 8; // images pulled at once by the batch API
  UnpackLimits limits;
  // Environment as read once at start (HOME, DOCKER_CONFIG, SSL_CERT_FILE, proxies...).
  std::map<std::string, std::string> env;
  // Roots searched for certs.d; empty = the standard three: $XDG_CONFIG_HOME/containers
  // (else ~/.config/containers), /etc/containers and /etc/docker, each + "/certs.d".
  std::vector<std::filesystem::path> certs_dirs;
  Log log;
  std::function<void(const Progress&)> progress; // null = quiet
  // Sent as User-Agent ("opm/<version>", filled in by the command layer); empty = none.
  std::string user_agent;

  [[nodiscard]] std::optional<std::string> getenv(const std::string& name) const {
    auto it = env.find(name);
    if (it == env.end() || it->second.empty()) {
      return std::nullopt;
    }
    return it->second;
  }
};

// The global TLS flags' combination errors (--use-http, --skip-tls-verify and the deprecated
// --skip-tls exclude each other), checked before any I/O.
Result<void> check_flag_combination(bool use_http, bool skip_tls_verify, bool skip_tls);

// Unpack limits from OPM_UNPACK_MAX_TOTAL, _FILE, _ENTRIES, _RATIO (bytes, count, ratio).
UnpackLimits limits_from_env(const std::map<std::string, std::string>& env);

// Default persistent cache: $OLM_CACHE_DIR/images, else $XDG_CACHE_HOME/opm, else
// $HOME/.cache/opm; empty when none of them is known.
std::filesystem::path default_cache_dir(const std::map<std::string, std::string>& env);

} // namespace opm::registry
