// The one Puller: routes each location to its kind's image source and remembers what each
// location resolved to, so that labels and then layers of one image cost one resolution.
#include "registry/puller.hpp"

#include "registry/detail/archive_source.hpp"
#include "registry/detail/layout_source.hpp"
#include "registry/detail/remote_source.hpp"
#include "registry/detail/unpack.hpp"
#include "registry/digest.hpp"
#include "registry/layout.hpp"
#include "util/interrupt.hpp"
#include "util/parallel.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <mutex>
#include <optional>

namespace opm::registry {

namespace fs = std::filesystem;

namespace {

// Whether the file holds exactly the content `digest` names.
bool matches_digest(const fs::path& path, std::string_view digest) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return false;
  }
  Hasher hasher(digest_algorithm(digest));
  std::array<char, 1 << 16> buf{};
  while (in.read(buf.data(), buf.size()) || in.gcount() > 0) {
    hasher.update(std::string_view(buf.data(), static_cast<std::size_t>(in.gcount())));
  }
  return hasher.finish() == digest;
}

class SourcePuller final : public Puller {
public:
  explicit SourcePuller(Options options)
      : m_options(std::move(options)), m_remote(m_options), m_layouts(m_options),
        m_archives(m_options) {}
  ~SourcePuller() override { destroy(); }
  SourcePuller(const SourcePuller&) = delete;
  SourcePuller& operator=(const SourcePuller&) = delete;

  Result<PulledImage> pull(const ImageLocation& ref) override {
    util::InterruptScope scope;
    return resolve(ref, {.config = true, .layers = true});
  }

  Result<std::string> digest(const ImageLocation& ref) override {
    util::InterruptScope scope;
    return OPM_TRY(resolve(ref, {.config = false, .layers = false})).digest;
  }

  Result<Labels> labels(const ImageLocation& ref) override {
    util::InterruptScope scope;
    auto image = OPM_TRY(resolve(ref, {.config = true, .layers = false}));
    return image.labels;
  }

  Result<void> unpack(const ImageLocation& ref, const fs::path& dir,
                      const std::vector<std::string>& prefixes) override {
    util::InterruptScope scope;
    // Unpacking reads no labels: the config is fetched only if something else asks for it.
    auto image = OPM_TRY(resolve(ref, {.config = false, .layers = true}));
    std::vector<LayerFile> files;
    files.reserve(image.layers.size());
    fs::path blobs_root = OPM_TRY(source(ref).layer_root(ref));
    for (const auto& l : image.layers) {
      files.push_back({blob_path(blobs_root, l.digest), l.digest, l.media_type});
    }
    auto r = unpack_layers(files, dir, m_options.limits, m_options.log, prefixes);
    if (!r && !source(ref).local() && !util::interrupted()) {
      r = fetch_damaged_again(ref, files, dir, prefixes, std::move(r).error());
    }
    if (!r) {
      return std::unexpected(std::move(r).error().wrap(fmt::format("unpacking {}", ref.text)));
    }
    return {};
  }

  std::vector<Result<PulledImage>> pull_all(std::span<const ImageLocation> refs) override {
    util::InterruptScope scope;
    std::vector<std::optional<Result<PulledImage>>> slots(refs.size());
    util::run_indexed(refs.size(), std::clamp<std::size_t>(m_options.jobs, 1, 64),
                      [&](std::size_t i) {
                        slots[i].emplace(resolve(refs[i], {.config = true, .layers = true}));
                      });
    for (ImageSource* s : sources()) {
      s->finish_batch();
    }
    std::vector<Result<PulledImage>> out;
    out.reserve(refs.size());
    for (auto& s : slots) {
      out.push_back(std::move(*s));
    }
    return out;
  }

  Result<fs::path> blob_file(const ImageLocation& ref, std::string_view digest) override {
    fs::path file = blob_path(OPM_TRY(source(ref).layer_root(ref)), digest);
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) {
      return util::fail(Errc::not_found,
                        fmt::format("blob {} of {} is not here", digest, ref.text));
    }
    return file;
  }

  void destroy() override {
    {
      std::lock_guard lock(m_mutex);
      m_memo.clear();
    }
    for (ImageSource* s : sources()) {
      s->reset();
    }
  }

private:
  struct Memo {
    PulledImage image;
    PullParts has{.config = false, .layers = false};
  };

  std::array<ImageSource*, 3> sources() { return {&m_remote, &m_layouts, &m_archives}; }

  ImageSource& source(const ImageLocation& at) {
    if (at.layout() != nullptr) {
      return m_layouts;
    }
    if (at.archive() != nullptr) {
      return m_archives;
    }
    return m_remote;
  }

  // After a failed unpack: cached layers whose content no longer matches their digest are
  // removed and fetched again, then the image is unpacked once more. Without such a layer
  // the failure stands.
  Result<void> fetch_damaged_again(const ImageLocation& ref, const std::vector<LayerFile>& files,
                                   const fs::path& dir, const std::vector<std::string>& prefixes,
                                   Error failure) {
    std::vector<std::string> damaged;
    for (const auto& f : files) {
      if (!matches_digest(f.path, f.digest)) {
        std::error_code ec;
        fs::remove(f.path, ec);
        damaged.push_back(f.digest);
      }
    }
    if (damaged.empty()) {
      return std::unexpected(std::move(failure));
    }
    m_options.log.debug("cached layer {} does not match its digest; fetching it again",
                        damaged.front());
    {
      std::lock_guard lock(m_mutex);
      if (auto it = m_memo.find(ref.text); it != m_memo.end()) {
        it->second.has.layers = false;
      }
    }
    if (auto again = resolve(ref, {.config = false, .layers = true}); !again) {
      return std::unexpected(std::move(again).error().wrap(
          fmt::format("cached layer {} does not match its digest and could not be fetched again",
                      damaged.front())));
    }
    return unpack_layers(files, dir, m_options.limits, m_options.log, prefixes);
  }

  Result<PulledImage> resolve(const ImageLocation& ref, PullParts want) {
    std::optional<PulledImage> earlier;
    {
      std::lock_guard lock(m_mutex);
      if (auto it = m_memo.find(ref.text); it != m_memo.end()) {
        const PullParts& has = it->second.has;
        if ((has.config || !want.config) && (has.layers || !want.layers)) {
          return it->second.image;
        }
        earlier = it->second.image;
      }
    }
    ImageSource& from = source(ref);
    Result<PulledImage> r = from.pull(ref, want, earlier ? &*earlier : nullptr);
    if (r) {
      std::lock_guard lock(m_mutex);
      auto& m = m_memo[ref.text];
      Labels known_labels = std::move(m.image.labels);
      m.image = *r;
      if (!want.config && !from.local() && m.has.config) {
        m.image.labels = std::move(known_labels);
      }
      // Local sources always read the config.
      m.has.config = m.has.config || want.config || from.local();
      m.has.layers = m.has.layers || want.layers;
    }
    return r;
  }

  Options m_options;
  RemoteSource m_remote;
  LayoutSource m_layouts;
  ArchiveSource m_archives;
  std::mutex m_mutex;
  std::map<std::string, Memo> m_memo;
};

} // namespace

Result<std::string> Puller::digest(const ImageLocation& at) { return OPM_TRY(pull(at)).digest; }

Result<fs::path> Puller::blob_file(const ImageLocation& at, std::string_view digest) {
  return util::fail(Errc::not_found, fmt::format("blob {} of {} is not here", digest, at.text));
}

Result<PulledImage> Puller::pull(std::string_view text) {
  return pull(OPM_TRY(parse_image_location(text)));
}

Result<std::string> Puller::digest(std::string_view text) {
  return digest(OPM_TRY(parse_image_location(text)));
}

Result<Labels> Puller::labels(std::string_view text) {
  return labels(OPM_TRY(parse_image_location(text)));
}

Result<void> Puller::unpack(std::string_view text, const fs::path& dir,
                            const std::vector<std::string>& prefixes) {
  return unpack(OPM_TRY(parse_image_location(text)), dir, prefixes);
}

std::vector<Result<PulledImage>> Puller::pull_all(std::span<const std::string> texts) {
  std::vector<ImageLocation> locations;
  std::vector<std::optional<Error>> unparsed(texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (auto at = parse_image_location(texts[i])) {
      locations.push_back(std::move(*at));
    } else {
      unparsed[i] = std::move(at).error();
    }
  }
  auto pulled = pull_all(std::span<const ImageLocation>(locations));
  std::vector<Result<PulledImage>> out;
  out.reserve(texts.size());
  auto next = pulled.begin();
  for (auto& failure : unparsed) {
    if (failure) {
      out.emplace_back(std::unexpected(std::move(*failure)));
    } else {
      out.push_back(std::move(*next++));
    }
  }
  return out;
}

std::unique_ptr<Puller> make_puller(Options options) {
  return std::make_unique<SourcePuller>(std::move(options));
}

} // namespace opm::registry
