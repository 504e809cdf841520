#include "diff/run.hpp"

#include "diff/diff.hpp"
#include "diff/write.hpp"
#include "util/strings.hpp"
#include "validate/ci_report.hpp"

#include <fmt/format.h>

namespace opm::diff {

namespace {

Result<catalog::model::Model> model_of(const catalog::DeclarativeConfig& cfg,
                                       const std::string& name) {
  auto model = catalog::model::to_model(cfg);
  if (!model) {
    return std::unexpected(
        std::move(model).error().wrap(fmt::format("load catalog {}", util::go_quote(name))));
  }
  return model;
}

validate::CiReport ci_report(const catalog::model::Model& old_model,
                             const catalog::model::Model& new_model,
                             const std::vector<Violation>& violations) {
  validate::CiReport report{.command = "alpha diff", .rules = {}, .packages = {}, .findings = {}};
  for (const auto& info : rules()) {
    report.rules.push_back({std::string(info.name), std::string(info.description)});
  }
  for (const auto* m : {&old_model, &new_model}) {
    for (const auto& [name, _] : m->packages) {
      report.packages.push_back(name);
    }
  }
  for (const auto& v : violations) {
    report.findings.push_back({std::string(rule_name(v.rule)), v.message, v.where, v.package});
  }
  return report;
}

std::optional<validate::CiFormat> ci_format(Format format) {
  switch (format) {
  case Format::github:
    return validate::CiFormat::github;
  case Format::sarif:
    return validate::CiFormat::sarif;
  case Format::junit:
    return validate::CiFormat::junit;
  default:
    return std::nullopt;
  }
}

} // namespace

Result<Format> parse_format(std::string_view name) {
  constexpr std::pair<std::string_view, Format> k_formats[] = {
      {"text", Format::text},     {"markdown", Format::markdown}, {"json", Format::json},
      {"github", Format::github}, {"sarif", Format::sarif},       {"junit", Format::junit}};
  for (const auto& [text, format] : k_formats) {
    if (text == name) {
      return format;
    }
  }
  return util::fail(Errc::usage, fmt::format("invalid --output value {}, expected "
                                             "(text|markdown|json|github|sarif|junit)",
                                             util::go_quote(name)));
}

Result<Outcome> run(const catalog::DeclarativeConfig& old_cfg, const std::string& old_name,
                    const catalog::DeclarativeConfig& new_cfg, const std::string& new_name,
                    const Options& options) {
  auto ci = ci_format(options.format);
  if (ci && !options.check_upgrades) {
    return util::fail(Errc::usage, "--output github, sarif and junit report the upgrade check: "
                                   "they need --check-upgrades");
  }
  auto old_model = OPM_TRY(model_of(old_cfg, old_name));
  auto new_model = OPM_TRY(model_of(new_cfg, new_name));
  std::vector<Violation> violations;
  if (options.check_upgrades) {
    violations = check_upgrades(old_model, new_model, options.allowed);
    if (!options.locate_new) {
      for (auto& v : violations) {
        v.where = {};
      }
    }
  }
  Outcome outcome{.output = {}, .violations = violations.size()};
  if (ci) {
    outcome.output = validate::ci_report_text(*ci, ci_report(old_model, new_model, violations));
    return outcome;
  }
  CatalogDiff diff = compare(old_model, new_model);
  Report report{.diff = diff, .violations = options.check_upgrades ? &violations : nullptr};
  switch (options.format) {
  case Format::markdown:
    outcome.output = markdown_report(report);
    break;
  case Format::json:
    outcome.output = json_report(report);
    break;
  default:
    outcome.output = text_report(report, options.colour);
  }
  return outcome;
}

} // namespace opm::diff
