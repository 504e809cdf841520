#pragma once

#include <filesystem>

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

// Owns a directory already registered with register_temp_path: when it goes away, the
// directory is removed with everything in it and unregistered.
class TempTree {
public:
  explicit TempTree(std::filesystem::path registered) : m_path(std::move(registered)) {}
  TempTree(TempTree&& other) noexcept : m_path(std::move(other.m_path)) { other.m_path.clear(); }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;
  TempTree& operator=(TempTree&&) = delete;
  ~TempTree();
  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }

private:
  std::filesystem::path m_path;
};

} // namespace opm::util
