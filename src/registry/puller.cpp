// The one Puller: picks the image source by the reference's form and remembers what each
// reference resolved to, so that labels and then layers of one image cost one resolution.
#include "registry/puller.hpp"

#include "registry/archive_source.hpp"
#include "registry/cancel.hpp"
#include "registry/layout_source.hpp"
#include "registry/pull_support.hpp"
#include "registry/remote_source.hpp"
#include "registry/unpack.hpp"
#include "util/parallel.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <optional>

namespace opm::registry {

namespace fs = std::filesystem;

namespace {

bool is_layout_ref(std::string_view ref) { return ref.starts_with("oci:"); }
bool is_archive_ref(std::string_view ref) { return ref.starts_with("docker-archive:"); }

class SourcePuller final : public Puller {
public:
  explicit SourcePuller(Options options)
      : m_options(std::move(options)), m_remote(m_options), m_archives(m_options) {}
  ~SourcePuller() override { destroy(); }
  SourcePuller(const SourcePuller&) = delete;
  SourcePuller& operator=(const SourcePuller&) = delete;

  Result<PulledImage> pull(std::string_view ref) override {
    InterruptScope scope;
    return resolve(ref, {.config = true, .layers = true});
  }

  Result<Labels> labels(std::string_view ref) override {
    InterruptScope scope;
    auto image = OPM_TRY(resolve(ref, {.config = true, .layers = false}));
    return image.labels;
  }

  Result<void> unpack(std::string_view ref, const fs::path& dir,
                      const std::vector<std::string>& prefixes) override {
    InterruptScope scope;
    // Unpacking reads no labels: the config is fetched only if something else asks for it.
    auto image = OPM_TRY(resolve(ref, {.config = false, .layers = true}));
    std::vector<LayerFile> files;
    files.reserve(image.layers.size());
    fs::path blobs_root = OPM_TRY(layer_root(ref));
    for (const auto& l : image.layers) {
      files.push_back({blob_path(blobs_root, l.digest), l.digest, l.media_type});
    }
    auto r = unpack_layers(files, dir, m_options.limits, m_options.log, prefixes);
    if (!r) {
      return std::unexpected(std::move(r).error().wrap(fmt::format("unpacking {}", ref)));
    }
    return {};
  }

  std::vector<Result<PulledImage>> pull_all(std::span<const std::string> refs) override {
    InterruptScope scope;
    std::vector<std::optional<Result<PulledImage>>> slots(refs.size());
    util::run_indexed(refs.size(), std::clamp<std::size_t>(m_options.jobs, 1, 64),
                      [&](std::size_t i) {
                        slots[i].emplace(resolve(refs[i], {.config = true, .layers = true}));
                      });
    m_remote.flush_index();
    std::vector<Result<PulledImage>> out;
    out.reserve(refs.size());
    for (auto& s : slots) {
      out.push_back(std::move(*s));
    }
    return out;
  }

  void destroy() override {
    m_remote.reset();
    {
      std::lock_guard lock(m_mutex);
      m_memo.clear();
    }
    m_archives.remove_all();
  }

private:
  struct Memo {
    PulledImage image;
    PullParts has{.config = false, .layers = false};
    std::optional<PullSource> source; // where a registry image came from
  };

  Result<fs::path> layer_root(std::string_view ref) {
    if (is_layout_ref(ref)) {
      return split_layout_ref(ref).first;
    }
    if (is_archive_ref(ref)) {
      if (auto root = m_archives.layer_root(ref)) {
        return *root;
      }
    }
    return m_remote.cache_root();
  }

  Result<PulledImage> resolve(std::string_view ref, PullParts want) {
    std::string key(ref);
    std::optional<PullSource> pinned;
    {
      std::lock_guard lock(m_mutex);
      if (auto it = m_memo.find(key); it != m_memo.end()) {
        const PullParts& has = it->second.has;
        if ((has.config || !want.config) && (has.layers || !want.layers)) {
          return it->second.image;
        }
        // Part of the image was fetched before: fetch the rest from the very manifest it
        // came from, without asking for the tag again.
        pinned = it->second.source;
        if (pinned) {
          pinned->ref.tag.clear();
          pinned->ref.digest = it->second.image.digest;
        }
      }
    }
    PullSource used;
    bool local = is_layout_ref(ref) || is_archive_ref(ref);
    Result<PulledImage> r = is_layout_ref(ref)    ? pull_from_layout(ref, m_options.platform)
                            : is_archive_ref(ref) ? m_archives.pull(ref)
                            : pinned              ? m_remote.pull_from(ref, *pinned, want)
                                                  : m_remote.pull(ref, want, used);
    if (r) {
      std::lock_guard lock(m_mutex);
      auto& m = m_memo[key];
      Labels known_labels = std::move(m.image.labels);
      m.image = *r;
      if (!want.config && !local && m.has.config) {
        m.image.labels = std::move(known_labels);
      }
      // Layouts and archives always read the config.
      m.has.config = m.has.config || want.config || local;
      m.has.layers = m.has.layers || want.layers;
      if (!pinned && !used.ref.domain.empty()) {
        m.source = used;
      }
    }
    return r;
  }

  Options m_options;
  RemoteSource m_remote;
  ArchiveSource m_archives;
  std::mutex m_mutex;
  std::map<std::string, Memo> m_memo;
};

} // namespace

std::unique_ptr<Puller> make_puller(Options options) {
  return std::make_unique<SourcePuller>(std::move(options));
}

} // namespace opm::registry
