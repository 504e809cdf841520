#include "validate/run.hpp"

#include "catalog/load.hpp"
#include "json/writer.hpp"
#include "util/free_at_exit.hpp"
#include "validate/ci_report.hpp"
#include "validate/validate.hpp"
#include "yaml/value.hpp"

#include <fmt/format.h>

#include <optional>
#include <vector>

namespace opm::validate {

namespace {

// A load error, or the check's message: a single finding carries its location, several
// are listed apart.
struct Verdict {
  std::optional<Error> failure;
  std::vector<Finding> listed;
  std::vector<Finding> all;          // every finding, also a lone one
  std::vector<std::string> packages; // of a catalog that loaded
};

Verdict load_and_check(const std::string& dir) {
  auto cfg = catalog::load_dir(
      dir, {.keep_objects = catalog::KeepObjects::csv_only, .release_manifests = true});
  if (!cfg) {
    return {std::move(cfg).error(), {}, {}, {}};
  }
  auto outcome = check(*cfg);
  std::vector<std::string> packages;
  for (const auto& package : cfg->packages) {
    packages.push_back(package.name);
  }
  util::free_at_exit(std::move(*cfg)); // validate is the command's last step
  if (outcome.passed()) {
    return {.failure = {}, .listed = {}, .all = {}, .packages = std::move(packages)};
  }
  std::vector<Finding> all = outcome.findings;
  std::optional<Location> where;
  if (outcome.findings.size() == 1 && outcome.message.find('\n') == std::string::npos) {
    where = outcome.findings.front().where;
    outcome.findings.clear();
  }
  return {Error(Errc::invalid, outcome.message, where), std::move(outcome.findings), std::move(all),
          std::move(packages)};
}

// A catalog that does not load is one finding about the catalog as a whole.
CiReport ci_report(const Verdict& verdict) {
  CiReport report{.command = "validate",
                  .rules = {{"validate", "the catalog loads and passes every model rule"}},
                  .packages = verdict.packages,
                  .findings = {}};
  std::vector<Finding> findings = verdict.all;
  if (verdict.failure && findings.empty()) {
    findings.push_back(
        {verdict.failure->message(), verdict.failure->where().value_or(Location{}), ""});
  }
  for (auto& finding : findings) {
    report.findings.push_back({"validate", std::move(finding.text), std::move(finding.where),
                               std::move(finding.package)});
  }
  return report;
}

std::optional<CiFormat> ci_format(ReportFormat format) {
  switch (format) {
  case ReportFormat::github:
    return CiFormat::github;
  case ReportFormat::sarif:
    return CiFormat::sarif;
  case ReportFormat::junit:
    return CiFormat::junit;
  default:
    return std::nullopt;
  }
}

// What text mode writes, as one message: every listed finding on its own line, then the
// failure with its location.
std::string located_text(const Verdict& verdict) {
  std::string text;
  for (const auto& finding : verdict.listed) {
    text += finding.describe() + "\n";
  }
  return text + verdict.failure->describe();
}

std::string json_report(const std::string& message) {
  bool passed = message.empty();
  std::string text = fmt::format("{{\n  \"passed\": {}", passed ? "true" : "false");
  if (!passed) {
    text += ",\n  \"error\": {\n    \"message\": ";
    json::append(text, Json(message), {.indent = 0, .escape_html = true});
    text += "\n  }";
  }
  text += "\n}\n";
  return text;
}

std::string yaml_report(const std::string& message) {
  Json doc = Json::object();
  doc["passed"] = message.empty();
  if (!message.empty()) {
    doc["error"] = {{"message", message}};
  }
  std::string text;
  yaml::append(text, doc);
  text += "\n";
  return text;
}

} // namespace

Result<void> run(const std::string& dir, ReportFormat format, std::ostream& out,
                 std::ostream& err) {
  Verdict verdict = load_and_check(dir);
  if (auto ci = ci_format(format)) {
    out << ci_report_text(*ci, ci_report(verdict));
    if (verdict.failure) {
      return std::unexpected(Error::already_reported(Errc::invalid)); // on `out`: exit 1
    }
    return {};
  }
  if (format != ReportFormat::text) {
    std::string message = verdict.failure ? located_text(verdict) : std::string();
    out << (format == ReportFormat::json ? json_report(message) : yaml_report(message));
    if (verdict.failure) {
      return std::unexpected(Error::already_reported(Errc::invalid)); // on `out`: exit 1
    }
    return {};
  }
  if (!verdict.failure) {
    return {};
  }
  for (const auto& finding : verdict.listed) {
    err << finding.describe() << "\n";
  }
  return std::unexpected(std::move(*verdict.failure));
}

} // namespace opm::validate
