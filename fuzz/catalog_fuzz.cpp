// File-based catalogs as `opm validate` and `opm render` load them: one file's JSON or YAML
// stream decoded into documents, the documents turned into declcfg objects, the model built
// and every validation rule run. A loaded catalog written out (JSON and YAML) and loaded again
// must write the same bytes. Each decoded document kept flat (json::Flattener, as serve keeps
// olm.csv.metadata values) must read back as the same value.
#include "catalog/decode.hpp"
#include "catalog/load.hpp"
#include "catalog/write.hpp"
#include "json/flat.hpp"
#include "validate/validate.hpp"
#include "yaml/detail/block_layout.hpp"

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_support.hpp"

namespace {

void check_flat_round_trip(const std::vector<opm::catalog::Document>& docs) {
  opm::json::Flattener flattener;
  for (const auto& doc : docs) {
    auto flat = flattener.flatten(doc.value);
    OPM_FUZZ_CHECK(flat.has_value());
    OPM_FUZZ_CHECK(opm::json::FlatNode::root(*flat).to_json() == doc.value);
  }
}

std::optional<opm::catalog::DeclarativeConfig> load(std::string_view text, std::string_view name) {
  auto docs = opm::catalog::decode_stream(text, name);
  if (!docs) {
    return std::nullopt;
  }
  check_flat_round_trip(*docs);
  opm::catalog::DeclarativeConfig cfg;
  if (!opm::catalog::add_documents(std::move(*docs), name, cfg)) {
    return std::nullopt;
  }
  return cfg;
}

std::string written(const opm::catalog::DeclarativeConfig& cfg, opm::catalog::Format format) {
  std::ostringstream out;
  opm::catalog::write(cfg, format, out);
  return std::move(out).str();
}

void check_rewrite_is_stable(const opm::catalog::DeclarativeConfig& cfg,
                             opm::catalog::Format format, std::string_view name) {
  auto first = written(cfg, format);
  auto reloaded = load(first, name);
  OPM_FUZZ_CHECK(reloaded.has_value());
  OPM_FUZZ_CHECK(written(*reloaded, format) == first);
}

// The direct reading of plain block layouts must agree with libyaml's events wherever it
// reads a document at all.
void check_direct_reading(std::string_view text) {
  auto direct = opm::yaml::detail::read_block_layout(text);
  if (!direct) {
    return;
  }
  auto events =
      opm::yaml::detail::events_to_json(text, false, SIZE_MAX, nullptr, opm::yaml::Rest::reject);
  OPM_FUZZ_CHECK(events.has_value() && *events == *direct);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  check_direct_reading(opm::fuzz::as_text(data, size));
  auto cfg = load(opm::fuzz::as_text(data, size), "catalog.yaml");
  if (!cfg) {
    return 0;
  }
  auto outcome = opm::validate::check(*cfg);
  OPM_FUZZ_CHECK(outcome.passed() == outcome.findings.empty());
  check_rewrite_is_stable(*cfg, opm::catalog::Format::json, "catalog.json");
  check_rewrite_is_stable(*cfg, opm::catalog::Format::yaml, "catalog.yaml");
  return 0;
}
