#include "util/interrupt.hpp"

#include "util/fs.hpp"
#include "util/owned_temp.hpp"

#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <mutex>
#include <string>
#include <system_error>
#include <vector>

namespace opm::util {

namespace {

std::atomic<int> g_signal{0};

struct State {
  std::mutex mutex;
  int depth = 0;
  struct sigaction old_int {};
  struct sigaction old_term {};
  std::vector<std::filesystem::path> temp_paths;
};

State& state() {
  static State s;
  return s;
}

extern "C" void on_signal(int sig) { g_signal.store(sig); }

} // namespace

bool interrupted() { return g_signal.load(std::memory_order_relaxed) != 0; }

InterruptScope::InterruptScope() {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  if (s.depth++ == 0) {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, nullptr, &s.old_int);
    // A SIGINT the parent ignored (a background job of a script) stays ignored, as in Go
    // programs that do not ask for it.
    if (s.old_int.sa_handler != SIG_IGN) {
      ::sigaction(SIGINT, &sa, nullptr);
    }
    ::sigaction(SIGTERM, &sa, &s.old_term);
  }
}

InterruptScope::~InterruptScope() {
  auto& s = state();
  int sig = 0;
  {
    std::lock_guard lock(s.mutex);
    if (--s.depth != 0) {
      return;
    }
    ::sigaction(SIGINT, &s.old_int, nullptr);
    ::sigaction(SIGTERM, &s.old_term, nullptr);
    sig = g_signal.load();
    if (sig != 0) {
      for (const auto& p : s.temp_paths) {
        std::error_code ec;
        std::filesystem::remove_all(p, ec);
      }
      s.temp_paths.clear();
    }
  }
  if (sig != 0) {
    ::signal(sig, SIG_DFL);
    ::raise(sig);
  }
}

void register_temp_path(const std::filesystem::path& path) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  s.temp_paths.push_back(path);
}

void unregister_temp_path(const std::filesystem::path& path) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  std::erase(s.temp_paths, path);
}

Result<TempTree> TempTree::make(const std::filesystem::path& parent, std::string_view prefix,
                                TempNaming naming) {
  std::string name(prefix);
  if (naming == TempNaming::owned) {
    remove_stale_owned(parent, prefix);
    name = owned_prefix(prefix);
  }
  std::string pattern = (parent / (name + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return fail(Errc::io, errno_text(errno));
  }
  register_temp_path(pattern);
  return TempTree(pattern);
}

TempTree& TempTree::operator=(TempTree&& other) noexcept {
  if (this != &other) {
    remove();
    m_path = std::exchange(other.m_path, {});
  }
  return *this;
}

TempTree::~TempTree() { remove(); }

std::filesystem::path TempTree::release() {
  unregister_temp_path(m_path);
  return std::exchange(m_path, {});
}

void TempTree::remove() {
  if (!m_path.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
    unregister_temp_path(m_path);
    m_path.clear();
  }
}

} // namespace opm::util
