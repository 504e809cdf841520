#include "validate/ci_report.hpp"

#include "json/writer.hpp"
#include "util/version.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

namespace opm::validate {

namespace {

// GitHub's workflow command escapes: a message escapes %, CR and LF; a property value also
// : and , (actions/toolkit's escapeData and escapeProperty).
std::string github_escape(std::string_view text, bool property) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '%':
      out += "%25";
      break;
    case '\r':
      out += "%0D";
      break;
    case '\n':
      out += "%0A";
      break;
    case ':':
      out += property ? "%3A" : ":";
      break;
    case ',':
      out += property ? "%2C" : ",";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string github_report(const CiReport& report) {
  std::string out;
  for (const auto& finding : report.findings) {
    std::vector<std::string> props;
    if (!finding.where.file.empty()) {
      props.push_back("file=" + github_escape(finding.where.file, true));
      if (finding.where.line > 0) {
        props.push_back(fmt::format("line={}", finding.where.line));
      }
      if (finding.where.column > 0) {
        props.push_back(fmt::format("col={}", finding.where.column));
      }
    }
    std::string title = "opm " + report.command;
    if (finding.rule != report.command) {
      title += ": " + finding.rule;
    }
    props.push_back("title=" + github_escape(title, true));
    std::string joined;
    for (const auto& p : props) {
      joined += (joined.empty() ? "" : ",") + p;
    }
    out += fmt::format("::error {}::{}\n", joined, github_escape(finding.message, false));
  }
  return out;
}

// A relative path as a URI reference: unreserved characters and '/' as they are, the rest
// percent-encoded.
std::string uri_of(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) != 0 || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

Json sarif_result(const CiFinding& finding) {
  Json result = {
      {"ruleId", finding.rule}, {"level", "error"}, {"message", {{"text", finding.message}}}};
  if (!finding.where.file.empty()) {
    Json physical = {{"artifactLocation", {{"uri", uri_of(finding.where.file)}}}};
    if (finding.where.line > 0) {
      Json region = {{"startLine", finding.where.line}};
      if (finding.where.column > 0) {
        region["startColumn"] = finding.where.column;
      }
      physical["region"] = region;
    }
    result["locations"] = Json::array({{{"physicalLocation", physical}}});
  }
  if (!finding.package.empty()) {
    result["properties"] = {{"package", finding.package}};
  }
  return result;
}

std::string sarif_report(const CiReport& report) {
  Json rules = Json::array();
  for (const auto& rule : report.rules) {
    rules.push_back({{"id", rule.id}, {"shortDescription", {{"text", rule.description}}}});
  }
  Json results = Json::array();
  for (const auto& finding : report.findings) {
    results.push_back(sarif_result(finding));
  }
  Json driver = {{"name", "opm"}, {"version", std::string(util::version())}, {"rules", rules}};
  Json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", Json::array({{{"tool", {{"driver", driver}}}, {"results", results}}})}};
  return json::to_text(doc, {.indent = 2}) + "\n";
}

// XML 1.0 text: markup characters as entities, control characters XML cannot hold dropped.
std::string xml_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t' || c == '\r') {
        out += c;
      }
    }
  }
  return out;
}

std::string describe_finding(const CiFinding& finding) {
  return finding.where.empty() ? finding.message
                               : finding.where.describe() + ": " + finding.message;
}

std::string junit_case(const CiReport& report, const std::string& name,
                       const std::vector<const CiFinding*>& failures) {
  std::string classname = "opm." + report.command;
  std::replace(classname.begin(), classname.end(), ' ', '.');
  std::string out = fmt::format("    <testcase classname=\"{}\" name=\"{}\"", xml_escape(classname),
                                xml_escape(name.empty() ? std::string("(catalog)") : name));
  if (failures.empty()) {
    return out + "/>\n";
  }
  out += ">\n";
  for (const auto* finding : failures) {
    std::string first_line = finding->message.substr(0, finding->message.find('\n'));
    out += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
                       xml_escape(finding->rule), xml_escape(first_line),
                       xml_escape(describe_finding(*finding)));
  }
  return out + "    </testcase>\n";
}

std::string junit_report(const CiReport& report) {
  std::map<std::string, std::vector<const CiFinding*>> by_package;
  for (const auto& name : report.packages) {
    by_package[name];
  }
  for (const auto& finding : report.findings) {
    by_package[finding.package].push_back(&finding);
  }
  std::size_t failed = 0;
  for (const auto& [_, failures] : by_package) {
    failed += failures.empty() ? 0 : 1;
  }
  std::string suite = xml_escape("opm " + report.command);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\">\n", suite,
                     by_package.size(), failed);
  out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n", suite,
                     by_package.size(), failed);
  for (const auto& [name, failures] : by_package) {
    out += junit_case(report, name, failures);
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

} // namespace

std::string ci_report_text(CiFormat format, const CiReport& report) {
  switch (format) {
  case CiFormat::github:
    return github_report(report);
  case CiFormat::sarif:
    return sarif_report(report);
  case CiFormat::junit:
    return junit_report(report);
  }
  return {};
}

} // namespace opm::validate
