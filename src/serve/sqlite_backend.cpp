#include "serve/sqlite_backend.hpp"

namespace opm::serve {

namespace {

void set_gvks(const std::vector<sqlite::Gvk>& gvks,
              google::protobuf::RepeatedPtrField<api::GroupVersionKind>& out) {
  for (const auto& gvk : gvks) {
    auto* msg = out.Add();
    msg->set_group(gvk.group);
    msg->set_version(gvk.version);
    msg->set_kind(gvk.kind);
    msg->set_plural(gvk.plural);
  }
}

template <typename Message>
void set_typed_values(const std::vector<sqlite::TypedValue>& values,
                      google::protobuf::RepeatedPtrField<Message>& out) {
  for (const auto& v : values) {
    auto* msg = out.Add();
    msg->set_type(v.type);
    msg->set_value(v.value);
  }
}

} // namespace

Result<BundleBytes> QueriedAnswers::bundle(Result<sqlite::BundleAnswer> answer) {
  if (!answer) {
    return std::unexpected(answer.error());
  }
  return BundleBytes(to_api_bundle(*answer).SerializeAsString());
}

Result<std::vector<api::ChannelEntry>>
QueriedAnswers::entries(Result<std::vector<sqlite::EntryAnswer>> rows) {
  if (!rows) {
    return std::unexpected(rows.error());
  }
  std::vector<api::ChannelEntry> entries;
  entries.reserve(rows->size());
  for (const auto& row : *rows) {
    api::ChannelEntry& e = entries.emplace_back();
    e.set_packagename(row.package_name);
    e.set_channelname(row.channel_name);
    e.set_bundlename(row.bundle_name);
    e.set_replaces(row.replaces);
  }
  return entries;
}

api::Bundle to_api_bundle(const sqlite::BundleAnswer& a) {
  api::Bundle b;
  b.set_csvname(a.csv_name);
  b.set_packagename(a.package_name);
  b.set_channelname(a.channel_name);
  b.set_csvjson(a.csv_json);
  b.mutable_object()->Assign(a.objects.begin(), a.objects.end());
  b.set_bundlepath(a.bundle_path);
  set_gvks(a.provided_apis, *b.mutable_providedapis());
  set_gvks(a.required_apis, *b.mutable_requiredapis());
  b.set_version(a.version);
  b.set_skiprange(a.skip_range);
  set_typed_values(a.dependencies, *b.mutable_dependencies());
  set_typed_values(a.properties, *b.mutable_properties());
  b.set_replaces(a.replaces);
  b.mutable_skips()->Assign(a.skips.begin(), a.skips.end());
  return b;
}

Result<std::vector<std::string>> SqliteBackend::package_names() const {
  return m_source.package_names();
}

Result<api::Package> SqliteBackend::package(std::string_view name) const {
  auto answer = OPM_TRY(m_source.package(name));
  api::Package pkg;
  pkg.set_name(answer.name);
  pkg.set_defaultchannelname(answer.default_channel);
  for (const auto& ch : answer.channels) {
    auto* channel = pkg.add_channels();
    channel->set_name(ch.name);
    channel->set_csvname(ch.csv_name);
  }
  return pkg;
}

namespace {

// The query's rows are read at once, as upstream reads them; each message is made from its
// row when it is sent.
class QueriedBundleList final : public BundleList {
public:
  explicit QueriedBundleList(std::vector<sqlite::BundleAnswer> answers)
      : m_answers(std::move(answers)) {}

  bool next(std::string& out) override {
    if (m_next == m_answers.size()) {
      return false;
    }
    out = to_api_bundle(m_answers[m_next++]).SerializeAsString();
    return true;
  }

private:
  std::vector<sqlite::BundleAnswer> m_answers;
  std::size_t m_next = 0;
};

} // namespace

Result<std::unique_ptr<BundleList>> SqliteBackend::list_bundles() const {
  return std::make_unique<QueriedBundleList>(OPM_TRY(m_source.bundles()));
}

} // namespace opm::serve
