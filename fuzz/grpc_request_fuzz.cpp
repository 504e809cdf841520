// gRPC requests as `opm serve` and `opm registry serve` decode and answer them. The first
// byte chooses the rpc (low nibble) and the backend (bit 4: the fixture catalog loaded as
// `opm serve` loads it, or the fixture index database as `opm registry serve` queries it);
// the rest is the request's protobuf encoding. A request that decodes is answered as the
// server answers it. Every bundle answer must decode as an api.Bundle, and a bundle asked for
// by package, channel and name must be that bundle.
#include "catalog/load.hpp"
#include "serve/request.hpp"
#include "serve/sqlite_backend.hpp"
#include "serve/store_backend.hpp"
#include "serve/stored_bundle.hpp"
#include "sqlite/connection.hpp"
#include "validate/validate.hpp"

#include <google/protobuf/stubs/logging.h>
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
    // Requests with invalid UTF-8 in a string fail to decode, as they should; protobuf would
    // also log each of them.
    google::protobuf::SetLogHandler(nullptr);
    auto cfg = catalog::load_dir(OPM_FUZZ_SERVE_CATALOG);
    OPM_FUZZ_CHECK(cfg.has_value());
    auto model = validate::valid_model(*cfg);
    OPM_FUZZ_CHECK(model.has_value());
    serve::TextPool pool;
    serve::PackageIndex index;
    for (const auto& [name, pkg] : model->packages) {
      auto indexed = serve::index_package(pkg, pool);
      OPM_FUZZ_CHECK(indexed.has_value());
      index.emplace(name, std::move(*indexed));
    }
    out.store = std::make_unique<serve::Store>(serve::Catalog{std::move(index), {}});
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
  std::string bytes;
  if (const auto* pieces = std::get_if<serve::StoredPieces>(&*answer)) {
    for (std::string_view piece : *pieces) {
      bytes += piece;
    }
  } else {
    bytes = std::get<std::string>(*answer);
  }
  OPM_FUZZ_CHECK(bundle.ParseFromString(bytes));
  return bundle;
}

void check_bundle(const Result<serve::BundleBytes>& answer) {
  if (answer) {
    decoded(answer);
  }
}

void check_entries(const Result<std::vector<api::ChannelEntry>>& entries) {
  OPM_FUZZ_CHECK(!entries || !entries->empty());
}

// Answers `data` when it decodes as a Request, as the server does; the server answers an
// undecodable request with INTERNAL and one of grpc-go's two texts, before any lookup.
template <typename Request, typename Answer>
void on(const std::uint8_t* data, std::size_t size, Answer answer) {
  Request r;
  auto refused = serve::decode_request(std::string_view(reinterpret_cast<const char*>(data), size),
                                       r, serve::CallShape::unary);
  if (!refused) {
    answer(r);
    return;
  }
  OPM_FUZZ_CHECK(*refused == "grpc: error unmarshalling request: string field contains invalid "
                             "UTF-8" ||
                 *refused == "grpc: error unmarshalling request: proto: cannot parse invalid "
                             "wire-format data");
}

void answer(const serve::Backend& b, unsigned rpc, const std::uint8_t* data, std::size_t size) {
  switch (rpc) {
  case 0:
    return on<api::ListPackageRequest>(data, size, [&](const auto&) { (void)b.package_names(); });
  case 1:
    return on<api::GetPackageRequest>(data, size, [&](const auto& r) {
      auto pkg = b.package(r.name());
      OPM_FUZZ_CHECK(!pkg || pkg->name() == r.name());
    });
  case 2:
    return on<api::GetBundleRequest>(data, size, [&](const auto& r) {
      auto found = b.bundle(r.pkgname(), r.channelname(), r.csvname());
      if (found) {
        auto bundle = decoded(found);
        OPM_FUZZ_CHECK(bundle.csvname() == r.csvname());
        OPM_FUZZ_CHECK(bundle.packagename() == r.pkgname());
      }
    });
  case 3:
    return on<api::GetBundleInChannelRequest>(data, size, [&](const auto& r) {
      check_bundle(b.bundle_for_channel(r.pkgname(), r.channelname()));
    });
  case 4:
    return on<api::GetAllReplacementsRequest>(
        data, size, [&](const auto& r) { check_entries(b.entries_that_replace(r.csvname())); });
  case 5:
    return on<api::GetReplacementRequest>(data, size, [&](const auto& r) {
      check_bundle(b.bundle_that_replaces(r.csvname(), r.pkgname(), r.channelname()));
    });
  case 6:
    return on<api::GetAllProvidersRequest>(data, size, [&](const auto& r) {
      check_entries(b.entries_that_provide(r.group(), r.version(), r.kind()));
    });
  case 7:
    return on<api::GetLatestProvidersRequest>(data, size, [&](const auto& r) {
      check_entries(b.latest_entries_that_provide(r.group(), r.version(), r.kind()));
    });
  case 8:
    return on<api::GetDefaultProviderRequest>(data, size, [&](const auto& r) {
      check_bundle(b.default_bundle_that_provides(r.group(), r.version(), r.kind()));
    });
  default:
    return on<api::ListBundlesRequest>(data, size, [&](const auto&) {
      auto list = b.list_bundles();
      OPM_FUZZ_CHECK(list.has_value());
      std::string message;
      for (int i = 0; i < 4 && (*list)->next(message); ++i) {
        api::Bundle bundle;
        OPM_FUZZ_CHECK(bundle.ParseFromString(message));
        OPM_FUZZ_CHECK(!bundle.csvname().empty());
      }
    });
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
