#include "serve/store.hpp"

#include "bundle/synthesised_csv.hpp"
#include "catalog/property.hpp"
#include "json/text.hpp"
#include "json/writer.hpp"
#include "util/base64.hpp"
#include "util/scratch_heap.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>

namespace opm::serve {

namespace {

namespace model = catalog::model;

// Keeps the texts a bundle's parts view while they are written.
class KeptTexts {
public:
  std::string_view keep(std::string text) { return m_texts.emplace_back(std::move(text)); }

private:
  std::deque<std::string> m_texts; // grows without moving what it holds
};

// A property value as upstream keeps it: compact JSON text, member order and escapes kept.
std::string_view value_text(const catalog::Property& p, KeptTexts& texts) {
  return p.raw.empty() ? texts.keep(json::to_text(p.value)) : std::string_view(p.raw);
}

template <typename Gvk> GvkParts gvk_parts(Gvk&& gvk, KeptTexts& texts) {
  return {texts.keep(std::move(gvk.group)),
          texts.keep(std::move(gvk.version)),
          texts.keep(std::move(gvk.kind)),
          {}};
}

Result<void> add_property(const catalog::Property& p, BundleParts& out, KeptTexts& texts) {
  using namespace catalog;
  // An olm.gvk.required value is both a dependency and a property: its text is made once.
  std::optional<std::string_view> text;
  auto value = [&] {
    if (!text) {
      text = value_text(p, texts);
    }
    return *text;
  };
  // The model was validated: its gvk values decode.
  if (p.type == k_prop_gvk) {
    out.provided_apis.push_back(gvk_parts(property::read_checked_gvk(p.value), texts));
  } else if (p.type == k_prop_gvk_required) {
    out.required_apis.push_back(gvk_parts(property::read_checked_gvk(p.value), texts));
    out.dependencies.push_back({k_prop_gvk, value()});
  } else if (p.type == k_prop_package_required) {
    auto required = OPM_TRY(property::decode_package_required(p.value));
    out.dependencies.push_back({k_prop_package, texts.keep(json::text::Builder()
                                                               .begin_object()
                                                               .key("packageName")
                                                               .string(required.package_name)
                                                               .key("version")
                                                               .string(required.version_range)
                                                               .end_object()
                                                               .text())});
  }
  // Latest leaves both out: clients copy properties into CSV annotations, and these hold
  // whole manifests.
  if (p.type != k_prop_bundle_object && p.type != k_prop_csv_metadata) {
    out.properties.push_back({p.type, value()});
  }
  return {};
}

std::optional<std::string> message_of(const model::Deprecation& d) {
  return d.present ? std::optional<std::string>(d.message) : std::nullopt;
}

api::ChannelEntry channel_entry(const IndexPackage& pkg, const IndexChannel& ch,
                                const IndexEntry& e, std::string_view replaces) {
  api::ChannelEntry out;
  out.set_packagename(pkg.name);
  out.set_channelname(ch.name);
  out.set_bundlename(e.name);
  out.set_replaces(std::string(replaces));
  return out;
}

bool provides(const IndexEntry& e, std::string_view group, std::string_view version,
              std::string_view kind) {
  return std::ranges::any_of(e.provided_apis, [&](const ApiKey& g) {
    return g.group == group && g.version == version && g.kind == kind;
  });
}

// The entry itself, then one entry per skipped name other than its replaces; with
// `in_channel_only`, only skipped names that are entries of the channel.
void append_provider_entries(const IndexPackage& pkg, const IndexChannel& ch, const IndexEntry& e,
                             bool in_channel_only, std::vector<api::ChannelEntry>& out) {
  out.push_back(channel_entry(pkg, ch, e, e.replaces));
  for (const auto& skip : e.skips) {
    if (skip != e.replaces && (!in_channel_only || ch.entries.contains(skip))) {
      out.push_back(channel_entry(pkg, ch, e, skip));
    }
  }
}

std::string gvk_text(std::string_view group, std::string_view version, std::string_view kind) {
  return fmt::format("group:{} version:{} kind:{}", util::go_quote(group), util::go_quote(version),
                     util::go_quote(kind));
}

std::unexpected<Error> not_found(std::string message) {
  return util::fail(Errc::not_found, std::move(message));
}

} // namespace

namespace {

// The one olm.csv.metadata of a bundle, or nullptr; more than one fails as upstream's
// parseProperties does.
Result<const catalog::Property*> csv_metadata_of(const model::Bundle& b) {
  const catalog::Property* found = nullptr;
  std::size_t count = 0;
  for (const auto& p : b.properties()) {
    if (p.type == catalog::k_prop_csv_metadata) {
      found = &p;
      ++count;
    }
  }
  if (count > 1) {
    return util::fail(Errc::invalid,
                      fmt::format("parse properties: expected at most 1 property of type \"{}\", "
                                  "found {}",
                                  catalog::k_prop_csv_metadata, count));
  }
  return found;
}

// What every CSV made for a package takes from it.
struct PackageCsvPart {
  std::string description;
  bool has_icon = false;
  std::string icon_data; // as base64
  std::string icon_mediatype;
};

// What a bundle's CSV is made from when an answer needs it.
struct CsvSource {
  bundle::KeptCsvMetadata metadata;
  std::string name;
  std::string version;
  std::vector<catalog::RelatedImage> related_images;
  std::shared_ptr<const PackageCsvPart> package;
};

class MadeCsv final : public MadeText {
public:
  explicit MadeCsv(CsvSource source) : m_source(std::move(source)) {}

private:
  [[nodiscard]] std::string make() const override {
    const PackageCsvPart& pkg = *m_source.package;
    std::optional<bundle::CsvStub::Icon> icon;
    if (pkg.has_icon) {
      icon = bundle::CsvStub::Icon{pkg.icon_data, pkg.icon_mediatype};
    }
    return m_source.metadata.csv({
        .name = m_source.name,
        .version = m_source.version,
        .package_description = pkg.description,
        .icon = icon,
        .related_images = m_source.related_images,
    });
  }

  CsvSource m_source;
};

// The bundle as latest converts it, but for its manifests, a CSV made from its
// olm.csv.metadata, and the replaces and skips of each channel entry.
Result<BundleParts> parts_as_given(const model::Bundle& b, KeptTexts& texts) {
  OPM_TRY(csv_metadata_of(b));
  BundleParts out;
  out.csv_name = b.name;
  out.package_name = b.package;
  out.channel_name = b.channel;
  out.bundle_path = b.image;
  out.version = b.version;
  out.skip_range = b.skip_range;
  for (const auto& p : b.properties()) {
    OPM_TRY(add_property(p, out, texts));
  }
  if (b.deprecation.present) {
    out.deprecation = b.deprecation.message;
  }
  return out;
}

// Latest's csvJson for a bundle without a CSV object, made on request: the CSV made from its
// one olm.csv.metadata (also its only object when it has no objects), or nothing. Made under a
// util::KeptHeap, as what the package shares is kept.
Result<std::shared_ptr<const MadeText>>
csv_made_on_request(const model::Bundle& b, const std::shared_ptr<const PackageCsvPart>& pkg,
                    json::Flattener& flattener) {
  const catalog::Property* csv_metadata = OPM_TRY(csv_metadata_of(b));
  if (!b.csv_json().empty() || csv_metadata == nullptr) {
    return nullptr;
  }
  const auto form = bundle::KeptCsvMetadata::form_of(*csv_metadata, flattener);
  const std::string version = b.parsed_version.to_string();
  const auto related = b.related_images();
  // Each part is copied once, at its size, where it is kept.
  const util::KeptHeap kept;
  return std::make_shared<const MadeCsv>(CsvSource{
      .metadata = bundle::KeptCsvMetadata(form),
      .name = b.name,
      .version = version,
      .related_images = {related.begin(), related.end()},
      .package = pkg,
  });
}

// What the CSVs made for `pkg` take from it, kept whole.
std::shared_ptr<const PackageCsvPart> package_csv_part(const model::Package& pkg) {
  PackageCsvPart made;
  made.description = pkg.description;
  if (pkg.icon) {
    made.has_icon = true;
    if (pkg.icon->data && !pkg.icon->data->empty()) {
      made.icon_data = util::base64_encode(*pkg.icon->data);
    }
    made.icon_mediatype = pkg.icon->mediatype;
  }
  const util::KeptHeap kept;
  return std::make_shared<const PackageCsvPart>(kept.keep(std::move(made)));
}

} // namespace

api::Bundle IndexEntry::full() const {
  api::Bundle out;
  stored.decode(out);
  return out;
}

namespace {

// Fills an entry from its bundle's parts and manifests.
void set_bundle_parts(IndexEntry& entry, const BundleParts& parts, std::string_view csv_json,
                      std::span<const std::string> objects, TextPool& pool,
                      std::shared_ptr<const MadeText> made_csv) {
  entry.package_name = parts.package_name;
  entry.channel_name = parts.channel_name;
  entry.bundle_path = parts.bundle_path;
  entry.provided_apis.clear();
  for (const auto& g : parts.provided_apis) {
    entry.provided_apis.push_back(
        {std::string(g.group), std::string(g.version), std::string(g.kind)});
  }
  entry.stored = StoredBundle(parts, csv_json, objects, pool, std::move(made_csv));
}

} // namespace

void set_bundle(IndexEntry& entry, api::Bundle bundle, TextPool& pool) {
  const BundleParts parts = parts_of(bundle);
  std::vector<std::string> objects(std::make_move_iterator(bundle.mutable_object()->begin()),
                                   std::make_move_iterator(bundle.mutable_object()->end()));
  set_bundle_parts(entry, parts, bundle.csvjson(), objects, pool, nullptr);
}

Result<IndexPackage> index_package(const model::Package& pkg, TextPool& pool) {
  IndexPackage out;
  out.name = pkg.name;
  out.description = pkg.description;
  if (pkg.icon) {
    out.icon = IndexIcon{pkg.icon->data, pkg.icon->mediatype};
  }
  out.default_channel = pkg.default_channel;
  out.deprecation = message_of(pkg.deprecation);
  // The CSVs made from olm.csv.metadata, by bundle object: a bundle in several channels has
  // one.
  std::unordered_map<const catalog::Bundle*, std::shared_ptr<const MadeText>> made;
  const std::shared_ptr<const PackageCsvPart> csv_part = package_csv_part(pkg);
  // One for the package: once its buffer has grown to the package's largest metadata,
  // flattening allocates nothing.
  json::Flattener flattener;
  for (const auto& [ch_name, ch] : pkg.channels) {
    IndexChannel& channel = out.channels[ch_name];
    channel.name = ch.name;
    channel.head = OPM_TRY(model::channel_head(ch))->name;
    channel.deprecation = message_of(ch.deprecation);
    for (const auto& [b_name, b] : ch.bundles) {
      IndexEntry entry;
      entry.name = b.name;
      entry.replaces = b.replaces;
      entry.skips = b.skips;
      auto [csv, inserted] = made.try_emplace(b.blob);
      if (inserted) {
        csv->second = OPM_TRY(csv_made_on_request(b, csv_part, flattener));
      }
      KeptTexts texts;
      const BundleParts parts = OPM_TRY(parts_as_given(b, texts));
      set_bundle_parts(entry, parts, b.csv_json(), b.objects(), pool, csv->second);
      channel.entries.emplace(b_name, std::move(entry));
    }
  }
  return out;
}

std::vector<std::string> Store::package_names() const {
  std::vector<std::string> names;
  names.reserve(m_index.size());
  for (const auto& [name, pkg] : m_index) {
    names.push_back(name);
  }
  return names;
}

Result<api::Package> Store::package(std::string_view name) const {
  auto it = m_index.find(name);
  if (it == m_index.end()) {
    return not_found(fmt::format("package {} not found", util::go_quote(name)));
  }
  const IndexPackage& pkg = it->second;
  api::Package out;
  out.set_name(pkg.name);
  out.set_defaultchannelname(pkg.default_channel);
  for (const auto& [ch_name, ch] : pkg.channels) {
    auto* c = out.add_channels();
    c->set_name(ch.name);
    c->set_csvname(ch.head);
    if (ch.deprecation) {
      c->mutable_deprecation()->set_message(*ch.deprecation);
    }
  }
  if (pkg.deprecation) {
    out.mutable_deprecation()->set_message(*pkg.deprecation);
  }
  return out;
}

namespace {

// The channel GetBundle and GetBundleForChannel look in, with upstream's messages (names
// quoted) when the package or the channel is missing.
Result<const IndexChannel*> find_channel(const PackageIndex& index, std::string_view pkg,
                                         std::string_view channel) {
  auto p = index.find(pkg);
  if (p == index.end()) {
    return not_found(fmt::format("package {} not found", util::go_quote(pkg)));
  }
  auto c = p->second.channels.find(channel);
  if (c == p->second.channels.end()) {
    return not_found(fmt::format("package {}, channel {} not found", util::go_quote(pkg),
                                 util::go_quote(channel)));
  }
  return &c->second;
}

} // namespace

Result<const IndexEntry*> Store::bundle(std::string_view pkg, std::string_view channel,
                                        std::string_view csv) const {
  const IndexChannel* c = OPM_TRY(find_channel(m_index, pkg, channel));
  auto e = c->entries.find(csv);
  if (e == c->entries.end()) {
    return not_found(fmt::format("package {}, channel {}, bundle {} not found", util::go_quote(pkg),
                                 util::go_quote(channel), util::go_quote(csv)));
  }
  return &e->second;
}

Result<const IndexEntry*> Store::bundle_for_channel(std::string_view pkg,
                                                    std::string_view channel) const {
  const IndexChannel* c = OPM_TRY(find_channel(m_index, pkg, channel));
  return bundle(pkg, channel, c->head);
}

Result<std::vector<api::ChannelEntry>> Store::entries_that_replace(std::string_view csv) const {
  std::vector<api::ChannelEntry> out;
  for (const auto& [pkg_name, pkg] : m_index) {
    for (const auto& [ch_name, ch] : pkg.channels) {
      for (const auto& [name, e] : ch.entries) {
        if (e.replaces == csv) {
          out.push_back(channel_entry(pkg, ch, e, e.replaces));
        }
        for (const auto& skip : e.skips) {
          if (skip == csv && skip != e.replaces) {
            out.push_back(channel_entry(pkg, ch, e, e.replaces));
          }
        }
      }
    }
  }
  if (out.empty()) {
    return not_found(fmt::format("no channel entries found that replace {}", csv));
  }
  return out;
}

Result<const IndexEntry*> Store::bundle_that_replaces(std::string_view csv, std::string_view pkg,
                                                      std::string_view channel) const {
  auto p = m_index.find(pkg);
  if (p == m_index.end()) {
    return not_found(fmt::format("package {} not found", pkg));
  }
  auto c = p->second.channels.find(channel);
  if (c == p->second.channels.end()) {
    return not_found(fmt::format("package {}, channel {} not found", util::go_quote(pkg),
                                 util::go_quote(channel)));
  }
  for (const auto& [name, e] : c->second.entries) {
    if (e.replaces == csv || std::ranges::find(e.skips, csv) != e.skips.end()) {
      return &e;
    }
  }
  return not_found(fmt::format("no entry found for package {}, channel {}", util::go_quote(pkg),
                               util::go_quote(channel)));
}

Result<std::vector<api::ChannelEntry>> Store::entries_that_provide(std::string_view group,
                                                                   std::string_view version,
                                                                   std::string_view kind) const {
  std::vector<api::ChannelEntry> out;
  for (const auto& [pkg_name, pkg] : m_index) {
    for (const auto& [ch_name, ch] : pkg.channels) {
      for (const auto& [name, e] : ch.entries) {
        if (provides(e, group, version, kind)) {
          append_provider_entries(pkg, ch, e, false, out);
        }
      }
    }
  }
  if (out.empty()) {
    return not_found(
        fmt::format("no channel entries found that provide {}", gvk_text(group, version, kind)));
  }
  return out;
}

Result<std::vector<api::ChannelEntry>>
Store::latest_entries_that_provide(std::string_view group, std::string_view version,
                                   std::string_view kind) const {
  std::vector<api::ChannelEntry> out;
  for (const auto& [pkg_name, pkg] : m_index) {
    for (const auto& [ch_name, ch] : pkg.channels) {
      auto head = ch.entries.find(ch.head);
      if (head != ch.entries.end() && provides(head->second, group, version, kind)) {
        append_provider_entries(pkg, ch, head->second, true, out);
      }
    }
  }
  if (out.empty()) {
    return not_found(
        fmt::format("no channel entries found that provide {}", gvk_text(group, version, kind)));
  }
  return out;
}

Result<const IndexEntry*> Store::default_bundle_that_provides(std::string_view group,
                                                              std::string_view version,
                                                              std::string_view kind) const {
  // Latest entries come in package order already, which is the order upstream sorts them in.
  auto latest = OPM_TRY(latest_entries_that_provide(group, version, kind));
  for (const auto& entry : latest) {
    const IndexPackage& pkg = m_index.find(entry.packagename())->second;
    if (entry.channelname() == pkg.default_channel) {
      return bundle(entry.packagename(), entry.channelname(), entry.bundlename());
    }
  }
  return not_found(fmt::format("no entry found that provides {}", gvk_text(group, version, kind)));
}

Result<const MetaFiles*> Store::custom_schemas(std::string_view schema,
                                               std::string_view package) const {
  if (auto ok = check_meta_key(schema, package); !ok) {
    return util::fail(Errc::invalid, "invalid custom schema query: " + ok.error().message());
  }
  auto it = m_metas.find(std::pair(std::string(schema), std::string(package)));
  return it == m_metas.end() ? nullptr : &it->second;
}

void Store::append_listing(const IndexEntry& entry, std::string& out) {
  entry.stored.append_listing(out, entry.bundle_path.empty(), entry.replaces, entry.skips);
}

} // namespace opm::serve
