// gRPC requests as `opm serve` and `opm registry serve` decode and answer them. The first
// byte chooses the rpc (low nibble) and the backend (bit 4: the fixture catalog loaded as
// `opm serve` loads it, or the fixture index database as `opm registry serve` queries it);
// the rest is the request's protobuf encoding. A request that decodes is answered as the
// server answers it. Every bundle answer must decode as an api.Bundle, and a bundle asked for
// by package, channel and name must be that bundle.
#include "catalog/load.hpp"
#include "serve/sqlite_backend.hpp"
#include "serve/store_backend.hpp"
#include "sqlite/connection.hpp"
#include "validate/validate.hpp"

#include <memory>

#include "fuzz_support.hpp"

namespace {

using namespace opm;

struct Backends {
  std::unique_ptr<serve::Store> store;
  std::unique_ptr<serve::StoreBackend> catalog;
  std::unique_ptr<sqlite::Querier> querier;
  std::unique_ptr<serve::SqliteBackend> database;
};

Backends& backends() {
  static Backends b = [] {
    Backends out;
    auto cfg = catalog::load_dir(OPM_FUZZ_SERVE_CATALOG);
    OPM_FUZZ_CHECK(cfg.has_value());
    auto model = validate::valid_model(*cfg);
    OPM_FUZZ_CHECK(model.has_value());
    auto index = serve::index_model(*model);
    OPM_FUZZ_CHECK(index.has_value());
    out.store = std::make_unique<serve::Store>(std::move(*index));
    out.catalog = std::make_unique<serve::StoreBackend>(*out.store);
    auto db = sqlite::Connection::open(OPM_FUZZ_SERVE_DATABASE, sqlite::OpenMode::read_only);
    OPM_FUZZ_CHECK(db.has_value());
    out.querier = std::make_unique<sqlite::Querier>(std::move(*db));
    out.database = std::make_unique<serve::SqliteBackend>(*out.querier);
    return out;
  }();
  return b;
}

api::Bundle decoded(const Result<serve::BundleBytes>& answer) {
  api::Bundle bundle;
  std::string_view bytes = std::visit([](const auto& b) { return std::string_view(b); }, *answer);
  OPM_FUZZ_CHECK(bundle.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())));
  return bundle;
}

void check_bundle(const Result<serve::BundleBytes>& answer) {
  if (answer) {
    decoded(answer);
  }
}

template <typename Request> bool parse(Request& r, const std::uint8_t* data, std::size_t size) {
  return r.ParseFromArray(data, static_cast<int>(size));
}

void answer(const serve::Backend& b, unsigned rpc, const std::uint8_t* data, std::size_t size) {
  switch (rpc) {
  case 0: {
    api::ListPackageRequest r;
    if (parse(r, data, size)) {
      (void)b.package_names();
    }
    break;
  }
  case 1: {
    api::GetPackageRequest r;
    if (parse(r, data, size)) {
      auto pkg = b.package(r.name());
      OPM_FUZZ_CHECK(!pkg || pkg->name() == r.name());
    }
    break;
  }
  case 2: {
    api::GetBundleRequest r;
    if (parse(r, data, size)) {
      auto found = b.bundle(r.pkgname(), r.channelname(), r.csvname());
      if (found) {
        auto bundle = decoded(found);
        OPM_FUZZ_CHECK(bundle.csvname() == r.csvname());
        OPM_FUZZ_CHECK(bundle.packagename() == r.pkgname());
      }
    }
    break;
  }
  case 3: {
    api::GetBundleInChannelRequest r;
    if (parse(r, data, size)) {
      check_bundle(b.bundle_for_channel(r.pkgname(), r.channelname()));
    }
    break;
  }
  case 4: {
    api::GetAllReplacementsRequest r;
    if (parse(r, data, size)) {
      auto entries = b.entries_that_replace(r.csvname());
      OPM_FUZZ_CHECK(!entries || !entries->empty());
    }
    break;
  }
  case 5: {
    api::GetReplacementRequest r;
    if (parse(r, data, size)) {
      check_bundle(b.bundle_that_replaces(r.csvname(), r.pkgname(), r.channelname()));
    }
    break;
  }
  case 6: {
    api::GetAllProvidersRequest r;
    if (parse(r, data, size)) {
      auto entries = b.entries_that_provide(r.group(), r.version(), r.kind());
      OPM_FUZZ_CHECK(!entries || !entries->empty());
    }
    break;
  }
  case 7: {
    api::GetLatestProvidersRequest r;
    if (parse(r, data, size)) {
      auto entries = b.latest_entries_that_provide(r.group(), r.version(), r.kind());
      OPM_FUZZ_CHECK(!entries || !entries->empty());
    }
    break;
  }
  case 8: {
    api::GetDefaultProviderRequest r;
    if (parse(r, data, size)) {
      check_bundle(b.default_bundle_that_provides(r.group(), r.version(), r.kind()));
    }
    break;
  }
  default: {
    api::ListBundlesRequest r;
    if (parse(r, data, size)) {
      std::size_t sent = 0;
      auto listed = b.list_bundles([&sent](const api::Bundle&) { return ++sent < 4; });
      OPM_FUZZ_CHECK(listed.has_value());
    }
    break;
  }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  auto& b = backends();
  const serve::Backend& backend =
      (data[0] & 0x10) != 0 ? static_cast<const serve::Backend&>(*b.database) : *b.catalog;
  answer(backend, data[0] & 0x0f, data + 1, size - 1);
  return 0;
}
