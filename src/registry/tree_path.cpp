#include "registry/tree_path.hpp"

#include "util/strings.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <sys/stat.h>

namespace opm::registry {

namespace {

constexpr std::size_t k_max_link = 4096;
constexpr int k_max_symlink_hops = 40;

std::string join(const std::vector<std::string>& parts) { return util::join(parts, "/"); }

} // namespace

std::vector<std::string> tree_path_parts(std::string_view path) {
  std::vector<std::string> out = util::split(path, '/');
  std::erase(out, std::string());
  return out;
}

std::expected<std::string, TreePathError>
resolve_in_tree(int root_fd, std::vector<std::string> parts, Missing missing) {
  using Kind = TreePathError::Kind;
  std::vector<std::string> done;
  int hops = 0;
  bool by_name = false; // past a missing component: no more lookups
  std::size_t i = 0;
  while (i < parts.size()) {
    const std::string part = parts[i++];
    if (part.empty() || part == ".") {
      continue;
    }
    if (part == "..") {
      if (done.empty()) {
        return std::unexpected(TreePathError{Kind::escape, {}, {}, 0});
      }
      done.pop_back();
      continue;
    }
    done.push_back(part);
    if (by_name) {
      continue;
    }
    std::string rel = join(done);
    bool last = i == parts.size();
    struct stat st {};
    if (::fstatat(root_fd, rel.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      int err = errno;
      if (missing == Missing::lexical) {
        by_name = true;
        continue;
      }
      if (err != ENOENT || missing != Missing::create) {
        return std::unexpected(TreePathError{Kind::io, "stat", rel, err});
      }
      if (::mkdirat(root_fd, rel.c_str(), 0755) != 0) {
        return std::unexpected(TreePathError{Kind::io, "mkdir", rel, errno});
      }
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      continue;
    }
    if (S_ISLNK(st.st_mode)) {
      if (++hops > k_max_symlink_hops) {
        return std::unexpected(TreePathError{Kind::loop, {}, rel, ELOOP});
      }
      char buf[k_max_link + 1];
      ssize_t n = ::readlinkat(root_fd, rel.c_str(), buf, k_max_link);
      if (n < 0) {
        return std::unexpected(TreePathError{Kind::io, "readlink", rel, errno});
      }
      std::string_view target(buf, static_cast<std::size_t>(n));
      done.pop_back();
      if (target.starts_with('/')) {
        done.clear(); // absolute targets start again at the root
      }
      std::vector<std::string> rest = tree_path_parts(target);
      rest.insert(rest.end(), parts.begin() + static_cast<std::ptrdiff_t>(i), parts.end());
      parts = std::move(rest);
      i = 0;
      continue;
    }
    if (missing == Missing::lexical) {
      by_name = !last;
      continue;
    }
    if (missing == Missing::fail) {
      return std::unexpected(TreePathError{Kind::io, "open", rel, ENOTDIR});
    }
    // A file in the way of a directory: replace it, as a later layer may.
    if (::unlinkat(root_fd, rel.c_str(), 0) != 0 || ::mkdirat(root_fd, rel.c_str(), 0755) != 0) {
      return std::unexpected(TreePathError{Kind::io, "mkdir", rel, errno});
    }
  }
  return join(done);
}

} // namespace opm::registry
