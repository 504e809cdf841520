#include "bundle/detail/csv_metadata_model.hpp"
#include "catalog/typed_decode.hpp"
#include "json/unmarshal.hpp"
#include "json/writer.hpp"
#include "util/semver.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <functional>
#include <optional>

namespace opm::bundle::detail {

// The CSV is decoded with the catalog codecs' Go rules.
using namespace catalog;

namespace {

// Go's json.Unmarshal into the OLM API types: member names match fields ignoring case,
// type errors are remembered (the first one is reported) while decoding goes on, and
// errors from custom decoders (semver) stop at once.
class Decoder {
public:
  using Handler = std::function<Result<void>(const Json&, const std::string& path)>;
  struct Field {
    std::string_view name;
    Handler handle;
  };

  [[nodiscard]] std::optional<Error> first_error() const { return m_first; }

  void type_error(const Json& v, std::string_view strct, const std::string& path,
                  std::string_view go_type) {
    if (!m_first) {
      m_first = Error(Errc::invalid, json::type_error(json::kind_name(v), strct, path, go_type));
    }
  }

  // A struct value of Go type `go_type`; `parent` (the enclosing struct) and `path` locate
  // type errors.
  Result<void> object(const Json& v, std::string_view parent, const std::string& path,
                      std::string_view go_type, const std::vector<Field>& fields) {
    if (v.is_null()) {
      return {};
    }
    if (!v.is_object()) {
      type_error(v, parent, path, go_type);
      return {};
    }
    for (auto it = v.begin(); it != v.end(); ++it) {
      for (const auto& f : fields) {
        if (util::equal_fold(it.key(), f.name)) {
          OPM_TRY(f.handle(it.value(), path.empty() ? std::string(f.name)
                                                    : fmt::format("{}.{}", path, f.name)));
          break;
        }
      }
    }
    return {};
  }

  Handler string(std::string_view strct, std::string& out) {
    return [this, strct, &out](const Json& v, const std::string& path) -> Result<void> {
      if (v.is_null()) {
        return {};
      }
      if (!v.is_string()) {
        type_error(v, strct, path, "string");
        return {};
      }
      out = v.get<std::string>();
      return {};
    };
  }

  Handler boolean(std::string_view strct, bool& out) {
    return [this, strct, &out](const Json& v, const std::string& path) -> Result<void> {
      if (v.is_null()) {
        return {};
      }
      if (!v.is_boolean()) {
        type_error(v, strct, path, "bool");
        return {};
      }
      out = v.get<bool>();
      return {};
    };
  }

  Handler int32(std::string_view strct, long long& out) {
    return [this, strct, &out](const Json& v, const std::string& path) -> Result<void> {
      if (v.is_null()) {
        return {};
      }
      if (!v.is_number()) {
        type_error(v, strct, path, "int32");
        return {};
      }
      bool whole =
          v.is_number_integer() ||
          (v.is_number_float() &&
           v.get<double>() == static_cast<double>(static_cast<long long>(v.get<double>())));
      long long n = whole ? v.get<long long>() : 0;
      if (!whole || n < -2147483648LL || n > 2147483647LL) {
        if (!m_first) {
          m_first = Error(Errc::invalid,
                          json::type_error("number " + json::to_text(v), strct, path, "int32"));
        }
        return {};
      }
      out = n;
      return {};
    };
  }

  Handler string_map(std::string_view strct, std::map<std::string, std::string>& out) {
    return [this, strct, &out](const Json& v, const std::string& path) -> Result<void> {
      if (v.is_null()) {
        out.clear();
        return {};
      }
      if (!v.is_object()) {
        type_error(v, strct, path, "map[string]string");
        return {};
      }
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (it->is_null()) {
          out[it.key()];
        } else if (!it->is_string()) {
          type_error(*it, strct, path, "string");
        } else {
          out[it.key()] = it->get<std::string>();
        }
      }
      return {};
    };
  }

  template <typename T, typename Element>
  Handler list(std::string_view strct, std::string elem_type, std::vector<T>& out,
               Element element) {
    return [this, strct, elem_type, &out, element](const Json& v,
                                                   const std::string& path) -> Result<void> {
      if (v.is_null()) {
        out.clear();
        return {};
      }
      if (!v.is_array()) {
        type_error(v, strct, path, fmt::format("[]{}", elem_type));
        return {};
      }
      out.clear();
      out.reserve(v.size());
      for (const auto& item : v) {
        out.emplace_back();
        OPM_TRY(element(item, path, out.back()));
      }
      return {};
    };
  }

  Handler strings(std::string_view strct, std::vector<std::string>& out) {
    return list(
        strct, "string", out,
        [this, strct](const Json& item, const std::string& path, std::string& s) -> Result<void> {
          return string(strct, s)(item, path);
        });
  }

private:
  std::optional<Error> m_first;
};

// The Go names used in messages.
constexpr std::string_view k_pkg = "v1alpha1.";

Result<void> descriptor(Decoder& d, const Json& v, std::string_view parent, const std::string& path,
                        std::string_view type_name, Descriptor& out) {
  return d.object(v, parent, path, fmt::format("{}{}", k_pkg, type_name),
                  {
                      {"path", d.string(type_name, out.path)},
                      {"displayName", d.string(type_name, out.display_name)},
                      {"description", d.string(type_name, out.description)},
                      {"x-descriptors", d.strings(type_name, out.x_descriptors)},
                      {"value",
                       [&out](const Json& raw, const std::string&) -> Result<void> {
                         out.value = json::to_text(raw, {.indent = 0, .escape_html = true});
                         return {};
                       }},
                  });
}

Decoder::Handler descriptors(Decoder& d, std::string_view parent, std::string_view type_name,
                             std::vector<Descriptor>& out) {
  return d.list(
      parent, fmt::format("{}{}", k_pkg, type_name), out,
      [&d, type_name, parent](const Json& item, const std::string& path, Descriptor& desc) {
        return descriptor(d, item, parent, path, type_name, desc);
      });
}

Decoder::Handler resources(Decoder& d, std::string_view parent, std::vector<ResourceRef>& out) {
  return d.list(parent, "v1alpha1.APIResourceReference", out,
                [&d, parent](const Json& item, const std::string& path, ResourceRef& r) {
                  constexpr std::string_view s = "APIResourceReference";
                  return d.object(item, parent, path, "v1alpha1.APIResourceReference",
                                  {{"name", d.string(s, r.name)},
                                   {"kind", d.string(s, r.kind)},
                                   {"version", d.string(s, r.version)}});
                });
}

Result<void> description(Decoder& d, const Json& v, std::string_view parent,
                         const std::string& path, bool api_service, Description& out) {
  std::string_view s = api_service ? "APIServiceDescription" : "CRDDescription";
  std::vector<Decoder::Field> fields = {
      {"name", d.string(s, out.name)},
      {"version", d.string(s, out.version)},
      {"kind", d.string(s, out.kind)},
      {"displayName", d.string(s, out.display_name)},
      {"description", d.string(s, out.description)},
      {"resources", resources(d, s, out.resources)},
      {"statusDescriptors", descriptors(d, s, "StatusDescriptor", out.status_descriptors)},
      {"specDescriptors", descriptors(d, s, "SpecDescriptor", out.spec_descriptors)},
      {"actionDescriptors", descriptors(d, s, "ActionDescriptor", out.action_descriptors)},
  };
  if (api_service) {
    fields.push_back({"group", d.string(s, out.group)});
    fields.push_back({"deploymentName", d.string(s, out.deployment_name)});
    fields.push_back({"containerPort", d.int32(s, out.container_port)});
  }
  return d.object(v, parent, path, fmt::format("{}{}", k_pkg, s), fields);
}

Decoder::Handler definitions(Decoder& d, bool api_service, Definitions& out) {
  std::string_view s = api_service ? "APIServiceDefinitions" : "CustomResourceDefinitions";
  std::string_view elem =
      api_service ? "v1alpha1.APIServiceDescription" : "v1alpha1.CRDDescription";
  return [&d, &out, s, elem, api_service](const Json& v, const std::string& path) -> Result<void> {
    auto one = [&d, api_service, s](const Json& item, const std::string& p, Description& desc) {
      return description(d, item, s, p, api_service, desc);
    };
    return d.object(v, "ClusterServiceVersionSpec", path, fmt::format("{}{}", k_pkg, s),
                    {{"owned", d.list(s, std::string(elem), out.owned, one)},
                     {"required", d.list(s, std::string(elem), out.required, one)}});
  };
}

Decoder::Handler pairs(Decoder& d, std::string_view strct, std::string_view go_type,
                       std::string_view first, std::string_view second, std::vector<Pair>& out) {
  return d.list(
      "ClusterServiceVersionSpec", std::string(go_type), out,
      [&d, strct, go_type, first, second](const Json& item, const std::string& path, Pair& p) {
        return d.object(item, "ClusterServiceVersionSpec", path, go_type,
                        {{first, d.string(strct, p.first)}, {second, d.string(strct, p.second)}});
      });
}

} // namespace

Result<CsvMetadata> decode_csv(const Json& csv) {
  Decoder d;
  CsvMetadata m;
  std::string ignored_string;
  bool ignored_bool = false;
  std::vector<std::string> ignored_strings;
  std::map<std::string, std::string> ignored_map;
  std::vector<Pair> ignored_pairs;
  constexpr std::string_view spec_struct = "ClusterServiceVersionSpec";

  auto version = [](const Json& v, const std::string&) -> Result<void> {
    // OperatorVersion.UnmarshalJSON: a string (null reads as ""), then semver.ParseTolerant.
    if (!v.is_null() && !v.is_string()) {
      return util::fail(Errc::invalid,
                        json::type_error(json::kind_name(v), "ClusterServiceVersionSpec",
                                         "spec.version", "string"));
    }
    OPM_TRY(util::semver::parse_tolerant(v.is_string() ? v.get<std::string>() : std::string()));
    return {};
  };
  auto release = [](const Json& v, const std::string&) -> Result<void> {
    if (!v.is_null() && !v.is_string()) {
      return util::fail(Errc::invalid,
                        json::type_error(json::kind_name(v), "ClusterServiceVersionSpec",
                                         "spec.release", "string"));
    }
    for (const auto& segment : util::split(v.is_string() ? v.get<std::string>() : "", '.')) {
      OPM_TRY(util::semver::parse_prerelease(segment));
    }
    return {};
  };
  auto install_modes =
      d.list(spec_struct, "v1alpha1.InstallMode", m.install_modes,
             [&d](const Json& item, const std::string& path, InstallMode& im) {
               constexpr std::string_view s = "InstallMode";
               return d.object(
                   item, "ClusterServiceVersionSpec", path, "v1alpha1.InstallMode",
                   {{"type", d.string(s, im.type)}, {"supported", d.boolean(s, im.supported)}});
             });
  auto native_apis =
      d.list(spec_struct, "v1.GroupVersionKind", m.native_apis,
             [&d](const Json& item, const std::string& path, ResourceRef& gvk) {
               constexpr std::string_view s = "GroupVersionKind";
               return d.object(item, "ClusterServiceVersionSpec", path, "v1.GroupVersionKind",
                               {{"group", d.string(s, gvk.name)},
                                {"version", d.string(s, gvk.version)},
                                {"kind", d.string(s, gvk.kind)}});
             });
  auto provider = [&d, &m](const Json& v, const std::string& path) {
    constexpr std::string_view s = "AppLink";
    return d.object(
        v, "ClusterServiceVersionSpec", path, "v1alpha1.AppLink",
        {{"name", d.string(s, m.provider.first)}, {"url", d.string(s, m.provider.second)}});
  };
  auto install = [&d, &ignored_string](const Json& v, const std::string& path) {
    constexpr std::string_view s = "NamedInstallStrategy";
    return d.object(v, "ClusterServiceVersionSpec", path, "v1alpha1.NamedInstallStrategy",
                    {{"strategy", d.string(s, ignored_string)}});
  };
  auto cleanup = [&d, &ignored_bool](const Json& v, const std::string& path) {
    constexpr std::string_view s = "CleanupSpec";
    return d.object(v, "ClusterServiceVersionSpec", path, "v1alpha1.CleanupSpec",
                    {{"enabled", d.boolean(s, ignored_bool)}});
  };
  auto spec = [&](const Json& v, const std::string& path) {
    return d.object(
        v, "ClusterServiceVersion", path, "v1alpha1.ClusterServiceVersionSpec",
        {
            {"install", install},
            {"version", version},
            {"release", release},
            {"maturity", d.string(spec_struct, m.maturity)},
            {"customresourcedefinitions", definitions(d, false, m.crds)},
            {"apiservicedefinitions", definitions(d, true, m.api_services)},
            {"nativeAPIs", native_apis},
            {"minKubeVersion", d.string(spec_struct, m.min_kube_version)},
            {"displayName", d.string(spec_struct, m.display_name)},
            {"description", d.string(spec_struct, m.description)},
            {"keywords", d.strings(spec_struct, m.keywords)},
            {"maintainers",
             pairs(d, "Maintainer", "v1alpha1.Maintainer", "name", "email", m.maintainers)},
            {"provider", provider},
            {"links", pairs(d, "AppLink", "v1alpha1.AppLink", "name", "url", m.links)},
            {"icon", pairs(d, "Icon", "v1alpha1.Icon", "base64data", "mediatype", ignored_pairs)},
            {"installModes", install_modes},
            {"replaces", d.string(spec_struct, ignored_string)},
            {"labels", d.string_map(spec_struct, ignored_map)},
            {"annotations", d.string_map(spec_struct, ignored_map)},
            {"cleanup", cleanup},
            {"skips", d.strings(spec_struct, ignored_strings)},
            {"relatedImages",
             pairs(d, "RelatedImage", "v1alpha1.RelatedImage", "name", "image", ignored_pairs)},
        });
  };
  auto metadata = [&](const Json& v, const std::string& path) {
    constexpr std::string_view s = "ObjectMeta";
    return d.object(v, "ClusterServiceVersion", path, "v1.ObjectMeta",
                    {
                        {"name", d.string(s, ignored_string)},
                        {"namespace", d.string(s, ignored_string)},
                        {"annotations", d.string_map(s, m.annotations)},
                        {"labels", d.string_map(s, m.labels)},
                    });
  };
  constexpr std::string_view top = "ClusterServiceVersion";
  OPM_TRY(d.object(csv, "", "", "v1alpha1.ClusterServiceVersion",
                   {
                       {"apiVersion", d.string(top, ignored_string)},
                       {"kind", d.string(top, ignored_string)},
                       {"metadata", metadata},
                       {"spec", spec},
                   }));
  if (auto err = d.first_error()) {
    return std::unexpected(std::move(*err));
  }
  return m;
}

} // namespace opm::bundle::detail
