#include "catalog/write.hpp"

#include "catalog/write_objects.hpp"
#include "json/writer.hpp"
#include "util/go_sort.hpp"

#include <algorithm>
#include <numeric>
#include <span>
#include <string_view>
#include <vector>

namespace opm::catalog {

namespace {

constexpr std::size_t k_flush_threshold = std::size_t{1} << 20;
constexpr json::Style k_stream_style{.indent = 4, .escape_html = false};

// Appends each object to a buffer in the chosen format, handing full chunks to the stream.
class StreamWriter {
public:
  StreamWriter(Format format, std::ostream& out) : m_format(format), m_out(out) {
    m_buffer.reserve(k_flush_threshold + (k_flush_threshold >> 2));
  }
  StreamWriter(const StreamWriter&) = delete;
  StreamWriter& operator=(const StreamWriter&) = delete;
  ~StreamWriter() { flush(); }

  template <typename T> void write(const T& object) {
    if (m_format == Format::json) {
      json::Writer w(m_buffer, k_stream_style);
      write_json(w, object);
      m_buffer.push_back('\n');
    } else {
      m_buffer += "---\n";
      yaml::Emitter e(m_buffer);
      e.begin_document();
      write_yaml(e, object);
      e.end_document();
    }
    if (m_buffer.size() >= k_flush_threshold) {
      flush();
    }
  }

private:
  void flush() {
    m_out.write(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
    m_buffer.clear();
  }

  Format m_format;
  std::ostream& m_out;
  std::string m_buffer;
};

// How objects of one package that compare equal are ordered: upstream sorts channels and
// bundles with Go's sort.Slice (its order of ties), other objects with sort.SliceStable.
enum class Ties { go_sort_slice, stable };

// Indices of the objects whose package (per `package_of`) is set, grouped by package in
// name order; within a package, the objects in input order sorted by `then_by`.
template <typename T, typename Package, typename Then>
std::vector<std::size_t> grouped(const std::vector<T>& objects, Package package_of, Then then_by,
                                 Ties ties) {
  std::vector<std::size_t> order;
  order.reserve(objects.size());
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (!package_of(objects[i]).empty()) {
      order.push_back(i);
    }
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return package_of(objects[a]) < package_of(objects[b]);
  });
  const auto less = [&](std::size_t a, std::size_t b) {
    return then_by(objects[a]) < then_by(objects[b]);
  };
  for (std::size_t begin = 0; begin < order.size();) {
    const std::string_view package = package_of(objects[order[begin]]);
    std::size_t end = begin + 1;
    while (end < order.size() && package_of(objects[order[end]]) == package) {
      ++end;
    }
    auto run = std::span(order).subspan(begin, end - begin);
    if (ties == Ties::go_sort_slice) {
      util::go_sort_slice(run, less);
    } else {
      std::stable_sort(run.begin(), run.end(), less);
    }
    begin = end;
  }
  return order;
}

// Walks one sorted index list along the sorted package names.
template <typename T, typename Package> class Cursor {
public:
  Cursor(const std::vector<T>& objects, std::vector<std::size_t> order, Package package_of)
      : m_objects(objects), m_order(std::move(order)), m_package_of(package_of) {}

  void write_package(std::string_view name, StreamWriter& writer) {
    while (m_next < m_order.size() && m_package_of(m_objects[m_order[m_next]]) == name) {
      writer.write(m_objects[m_order[m_next]]);
      ++m_next;
    }
  }

  void collect_names(std::vector<std::string_view>& names) const {
    for (const std::size_t i : m_order) {
      names.push_back(m_package_of(m_objects[i]));
    }
  }

private:
  const std::vector<T>& m_objects;
  std::vector<std::size_t> m_order;
  Package m_package_of;
  std::size_t m_next = 0;
};

template <typename T, typename Package>
Cursor<T, Package> make_cursor(const std::vector<T>& objects, std::vector<std::size_t> order,
                               Package package_of) {
  return Cursor<T, Package>(objects, std::move(order), package_of);
}

} // namespace

void write(const DeclarativeConfig& cfg, Format format, std::ostream& out) {
  const auto no_key = [](const auto&) { return 0; };
  const auto package_name = [](const Package& p) -> std::string_view { return p.name; };
  const auto channel_package = [](const Channel& c) -> std::string_view { return c.package; };
  const auto bundle_package = [](const Bundle& b) -> std::string_view { return b.package; };
  const auto other_package = [](const Meta& m) -> std::string_view { return m.package; };
  const auto deprecation_package = [](const Deprecation& d) -> std::string_view {
    return d.package;
  };

  auto packages = make_cursor(
      cfg.packages, grouped(cfg.packages, package_name, no_key, Ties::stable), package_name);
  auto channels = make_cursor(cfg.channels,
                              grouped(
                                  cfg.channels, channel_package,
                                  [](const Channel& c) -> std::string_view { return c.name; },
                                  Ties::go_sort_slice),
                              channel_package);
  auto bundles = make_cursor(cfg.bundles,
                             grouped(
                                 cfg.bundles, bundle_package,
                                 [](const Bundle& b) -> std::string_view { return b.name; },
                                 Ties::go_sort_slice),
                             bundle_package);
  auto others =
      make_cursor(cfg.others,
                  grouped(
                      cfg.others, other_package,
                      [](const Meta& m) -> std::string_view { return m.schema; }, Ties::stable),
                  other_package);
  auto deprecations = make_cursor(
      cfg.deprecations, grouped(cfg.deprecations, deprecation_package, no_key, Ties::stable),
      deprecation_package);

  std::vector<std::string_view> names;
  packages.collect_names(names);
  channels.collect_names(names);
  bundles.collect_names(names);
  others.collect_names(names);
  deprecations.collect_names(names);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());

  StreamWriter writer(format, out);
  for (const std::string_view name : names) {
    packages.write_package(name, writer);
    channels.write_package(name, writer);
    bundles.write_package(name, writer);
    others.write_package(name, writer);
    deprecations.write_package(name, writer);
  }
  for (const Meta& other : cfg.others) {
    if (other.package.empty()) {
      writer.write(other);
    }
  }
}

} // namespace opm::catalog
