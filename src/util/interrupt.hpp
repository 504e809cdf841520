#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <string_view>
#include <utility>

namespace opm::util {

// True once SIGINT or SIGTERM arrived while an InterruptScope was active.
bool interrupted();

// While at least one scope lives, SIGINT/SIGTERM only set the interrupted flag so that
// transfers stop and temporary files are removed. When the last scope ends after an
// interrupt, registered temporary paths are removed and the signal is raised again with
// its default action, so the process ends as the user asked. A SIGINT ignored when the
// first scope starts stays ignored.
class InterruptScope {
public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

// Paths removed (recursively) when an interrupt ends the process.
void register_temp_path(const std::filesystem::path& path);
void unregister_temp_path(const std::filesystem::path& path);

// How a temporary directory is named: "<prefix><random>", or "<prefix><pid>-<random>" so that
// a later run can remove what a killed process left behind (see owned_temp.hpp).
enum class TempNaming { random, owned };

// Owns a temporary directory registered with register_temp_path: when it goes away, the
// directory is removed with everything in it and unregistered.
class TempTree {
public:
  TempTree() = default;
  explicit TempTree(std::filesystem::path registered) : m_path(std::move(registered)) {}
  // A new directory in `parent`, registered: the one way to make one. With TempNaming::owned,
  // the stale directories of processes that no longer run are removed first. The error is the
  // system's reason, for the caller to word.
  static Result<TempTree> make(const std::filesystem::path& parent, std::string_view prefix,
                               TempNaming naming = TempNaming::random);
  TempTree(TempTree&& other) noexcept : m_path(std::exchange(other.m_path, {})) {}
  TempTree& operator=(TempTree&& other) noexcept;
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;
  ~TempTree();
  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }
  [[nodiscard]] bool empty() const { return m_path.empty(); }
  // Keep the directory: it is no longer removed, by this or by an interrupt.
  std::filesystem::path release();

private:
  void remove();
  std::filesystem::path m_path;
};

} // namespace opm::util
