#!/usr/bin/env python3
"""Structure checks for the CI reports opm writes.

check_ci_reports.py sarif FILE: FILE is a SARIF 2.1.0 log as the OASIS standard's schema
requires it for the objects opm writes (sarifLog, run, tool, toolComponent,
reportingDescriptor, result, message, location, physicalLocation, artifactLocation, region):
required properties present, no property the schema does not define for that object, and
values of the schema's types and ranges.

check_ci_reports.py junit FILE: FILE is well-formed XML with a <testsuites> root holding
<testsuite> elements of <testcase> elements whose counts match their attributes.
"""
import json
import sys
import xml.etree.ElementTree as ET

LEVELS = {"none", "note", "warning", "error"}


def fail(message):
    sys.exit(f"{sys.argv[2]}: {message}")


def keys(obj, where, required, allowed):
    if not isinstance(obj, dict):
        fail(f"{where} is not an object")
    missing = [k for k in required if k not in obj]
    if missing:
        fail(f"{where} lacks {missing}")
    unknown = sorted(set(obj) - set(required) - set(allowed))
    if unknown:
        fail(f"{where} has properties SARIF does not define: {unknown}")


def text(value, where):
    if not isinstance(value, str):
        fail(f"{where} is not a string")


def positive(value, where):
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        fail(f"{where} is not an integer >= 1")


def message(obj, where):
    keys(obj, where, [], ["text", "markdown", "id", "arguments", "properties"])
    text(obj.get("text"), where + ".text")


def location(obj, where):
    keys(obj, where, [], ["id", "physicalLocation", "logicalLocations", "message",
                           "annotations", "relationships", "properties"])
    physical = obj.get("physicalLocation")
    if physical is None:
        return
    keys(physical, where + ".physicalLocation", [],
         ["address", "artifactLocation", "region", "contextRegion", "properties"])
    artifact = physical.get("artifactLocation")
    if artifact is not None:
        keys(artifact, where + ".artifactLocation", [],
             ["uri", "uriBaseId", "index", "description", "properties"])
        text(artifact.get("uri"), where + ".artifactLocation.uri")
    region = physical.get("region")
    if region is not None:
        keys(region, where + ".region", [],
             ["startLine", "startColumn", "endLine", "endColumn", "charOffset", "charLength",
              "byteOffset", "byteLength", "snippet", "message", "sourceLanguage", "properties"])
        for k in ("startLine", "startColumn", "endLine", "endColumn"):
            if k in region:
                positive(region[k], f"{where}.region.{k}")


def result(obj, where):
    keys(obj, where, ["message"],
         ["guid", "correlationGuid", "ruleId", "ruleIndex", "rule", "kind", "level",
          "analysisTarget", "locations", "webRequest", "webResponse", "fingerprints",
          "partialFingerprints", "codeFlows", "graphs", "graphTraversals", "stacks",
          "relatedLocations", "suppressions", "baselineState", "rank", "attachments",
          "hostedViewerUri", "workItemUris", "provenance", "fixes", "taxa",
          "occurrenceCount", "properties"])
    message(obj["message"], where + ".message")
    if "level" in obj and obj["level"] not in LEVELS:
        fail(f"{where}.level {obj['level']!r} is not one of {sorted(LEVELS)}")
    if "ruleId" in obj:
        text(obj["ruleId"], where + ".ruleId")
    for i, loc in enumerate(obj.get("locations", [])):
        location(loc, f"{where}.locations[{i}]")


def sarif(path):
    with open(path, encoding="utf-8") as f:
        log = json.load(f)
    keys(log, "sarifLog", ["version", "runs"], ["$schema", "inlineExternalProperties",
                                                  "properties"])
    if log["version"] != "2.1.0":
        fail(f"version is {log['version']!r}")
    if not isinstance(log["runs"], list):
        fail("runs is not an array")
    for r, run in enumerate(log["runs"]):
        where = f"runs[{r}]"
        keys(run, where, ["tool"],
             ["invocations", "conversion", "language", "versionControlProvenance",
              "originalUriBaseIds", "artifacts", "logicalLocations", "graphs", "results",
              "automationDetails", "runAggregates", "baselineGuid", "redactionTokens",
              "defaultEncoding", "defaultSourceLanguage", "newlineSequences",
              "columnKind", "externalPropertyFileReferences", "threadFlowLocations", "taxonomies",
              "addresses", "translations", "policies", "webRequests", "webResponses",
              "specialLocations", "properties"])
        keys(run["tool"], where + ".tool", ["driver"], ["extensions", "properties"])
        driver = run["tool"]["driver"]
        keys(driver, where + ".tool.driver", ["name"],
             ["guid", "version", "semanticVersion", "dottedQuadFileVersion", "releaseDateUtc",
              "downloadUri", "informationUri", "organization", "product", "productSuite",
              "shortDescription", "fullDescription", "fullName", "rules", "notifications",
              "taxa", "locations", "language", "contents", "isComprehensive",
              "localizedDataSemanticVersion", "minimumRequiredLocalizedDataSemanticVersion",
              "associatedComponent", "translationMetadata", "supportedTaxonomies", "properties"])
        text(driver["name"], where + ".tool.driver.name")
        for i, rule in enumerate(driver.get("rules", [])):
            rwhere = f"{where}.tool.driver.rules[{i}]"
            keys(rule, rwhere, ["id"],
                 ["deprecatedIds", "guid", "deprecatedGuids", "name", "deprecatedNames",
                  "shortDescription", "fullDescription", "messageStrings",
                  "defaultConfiguration", "helpUri", "help", "relationships", "properties"])
            text(rule["id"], rwhere + ".id")
            if "shortDescription" in rule:
                message(rule["shortDescription"], rwhere + ".shortDescription")
        for i, res in enumerate(run.get("results", [])):
            result(res, f"{where}.results[{i}]")


def junit(path):
    root = ET.parse(path).getroot()
    if root.tag != "testsuites":
        fail(f"root element is <{root.tag}>")
    for suite in root:
        if suite.tag != "testsuite":
            fail(f"<{suite.tag}> inside <testsuites>")
        cases = [c for c in suite if c.tag == "testcase"]
        failing = [c for c in cases if c.find("failure") is not None]
        if int(suite.get("tests")) != len(cases) or int(suite.get("failures")) != len(failing):
            fail(f"suite {suite.get('name')!r} counts do not match its test cases")
        for case in cases:
            if not case.get("name") or not case.get("classname"):
                fail("a test case without name or classname")


if __name__ == "__main__":
    {"sarif": sarif, "junit": junit}[sys.argv[1]](sys.argv[2])
