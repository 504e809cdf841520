#include "util/owned_temp.hpp"

#include "util/fs.hpp"
#include "util/interrupt.hpp"

#include <fmt/format.h>

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <optional>

namespace opm::util {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_marker = ".opm-owner-"; // after the directory's name

// The process id that `text` starts with, up to `end` (a character that must follow it).
std::optional<pid_t> leading_pid(std::string_view text, std::optional<char> end) {
  pid_t pid = 0;
  auto [next, ec] = std::from_chars(text.data(), text.data() + text.size(), pid);
  if (ec != std::errc() || pid <= 0 || next == text.data()) {
    return std::nullopt;
  }
  if (end ? (next == text.data() + text.size() || *next != *end)
          : next != text.data() + text.size()) {
    return std::nullopt;
  }
  return pid;
}

bool process_gone(pid_t pid) { return pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH; }

} // namespace

std::string owned_prefix(std::string_view prefix) {
  return fmt::format("{}{}-", prefix, ::getpid());
}

Result<OwnedTempFile> make_owned_temp_file(const fs::path& dir, std::string_view prefix) {
  remove_stale_owned(dir, prefix);
  std::string pattern = (dir / (owned_prefix(prefix) + "XXXXXX")).string();
  Fd fd(::mkstemp(pattern.data()));
  if (!fd.valid()) {
    return fail(Errc::io, errno_text(errno));
  }
  register_temp_path(pattern);
  return OwnedTempFile{std::move(fd), pattern};
}

fs::path owner_marker(const fs::path& dir) {
  return dir.parent_path() / fmt::format(".{}{}{}", dir.filename().string(), k_marker, ::getpid());
}

bool stale_owned_name(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix)) {
    return false;
  }
  auto pid = leading_pid(name.substr(prefix.size()), '-');
  return pid && process_gone(*pid);
}

fs::path owned_copy_original(const fs::path& copy, std::string_view infix) {
  std::string name = copy.filename().string();
  auto at = name.rfind(infix);
  if (!name.starts_with('.') || at == std::string::npos || at <= 1 ||
      !leading_pid(std::string_view(name).substr(at + infix.size()), '-')) {
    return copy;
  }
  return copy.parent_path() / name.substr(1, at - 1);
}

void remove_stale_owned(const fs::path& dir, std::string_view prefix) {
  auto entries = sorted_entries(dir);
  if (!entries) {
    return;
  }
  for (const auto& e : *entries) {
    if (stale_owned_name(e.name, prefix)) {
      std::error_code ec;
      fs::remove_all(dir / e.name, ec);
    }
  }
}

void remove_stale_marked(const fs::path& dir, std::string_view prefix) {
  auto entries = sorted_entries(dir);
  if (!entries) {
    return;
  }
  for (const auto& e : *entries) {
    std::string_view name = e.name;
    auto at = name.rfind(k_marker);
    if (e.is_dir || !name.starts_with('.') || !name.substr(1).starts_with(prefix) ||
        at == std::string_view::npos) {
      continue;
    }
    auto pid = leading_pid(name.substr(at + k_marker.size()), std::nullopt);
    if (pid && process_gone(*pid)) {
      std::error_code ec;
      fs::remove_all(dir / std::string(name.substr(1, at - 1)), ec);
      fs::remove(dir / e.name, ec);
    }
  }
}

} // namespace opm::util
