#pragma once

#include "json/value.hpp"
#include "util/error.hpp"

#include <map>
#include <string>
#include <vector>

// The parts of a ClusterServiceVersion that olm.csv.metadata keeps, decoded as Go's
// json.Unmarshal decodes them into the OLM API types (csv_metadata_decode.cpp), and written
// in the Go structs' field order (csv_metadata.cpp).
namespace opm::bundle::detail {

struct Descriptor {
  std::string path;
  std::string display_name;
  std::string description;
  std::vector<std::string> x_descriptors;
  std::string value; // raw JSON text; empty when absent
};

struct ResourceRef {
  std::string name;
  std::string kind;
  std::string version;
};

struct Description {
  std::string name;
  std::string group; // API services only
  std::string version;
  std::string kind;
  std::string deployment_name;  // API services only
  long long container_port = 0; // API services only
  std::string display_name;
  std::string description;
  std::vector<ResourceRef> resources;
  std::vector<Descriptor> status_descriptors;
  std::vector<Descriptor> spec_descriptors;
  std::vector<Descriptor> action_descriptors;
};

struct Definitions {
  std::vector<Description> owned;
  std::vector<Description> required;
};

struct InstallMode {
  std::string type;
  bool supported = false;
};

struct Pair {
  std::string first;
  std::string second;
};

struct CsvMetadata {
  std::map<std::string, std::string> annotations;
  Definitions api_services;
  Definitions crds;
  std::string description;
  std::string display_name;
  std::vector<InstallMode> install_modes;
  std::vector<std::string> keywords;
  std::map<std::string, std::string> labels;
  std::vector<Pair> links;       // name, url
  std::vector<Pair> maintainers; // name, email
  std::string maturity;
  std::string min_kube_version;
  std::vector<ResourceRef> native_apis; // group (in name), version, kind
  Pair provider;                        // name, url
};

Result<CsvMetadata> decode_csv(const Json& csv);

} // namespace opm::bundle::detail
