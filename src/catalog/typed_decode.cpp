#include "catalog/typed_decode.hpp"

#include "json/unmarshal.hpp"
#include "util/base64.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <array>
#include <functional>
#include <iterator>

namespace opm::catalog {

namespace {

Error go_type_error(const Json& value, std::string_view strct, std::string_view path,
                    std::string_view go_type) {
  return Error(Errc::invalid, json::type_error(json::kind_name(value), strct, path, go_type));
}

// Where a value sits while decoding: the innermost struct's Go name and the field path.
struct Field {
  std::string_view strct;
  std::string path;
};

std::string join_path(std::string_view parent, std::string_view name) {
  if (parent.empty()) {
    return std::string(name);
  }
  return fmt::format("{}.{}", parent, name);
}

// The field a member sets as Go matches names (exact, else case-insensitive), or N for none.
template <std::size_t N>
std::size_t field_of(std::string_view key, const std::array<std::string_view, N>& names) {
  for (std::size_t i = 0; i < N; ++i) {
    if (key == names[i]) {
      return i;
    }
  }
  for (std::size_t i = 0; i < N; ++i) {
    if (util::equal_fold(key, names[i])) {
      return i;
    }
  }
  return N;
}

// Visit the members of `obj` that match one of `names`, in member order. `fn(index, value)` may
// fail. `JsonT` is Json or const Json.
template <typename JsonT, std::size_t N, typename Fn>
Result<void> for_fields(JsonT& obj, const std::array<std::string_view, N>& names, Fn&& fn) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    std::size_t found = field_of(it.key(), names);
    if (found != N) {
      OPM_TRY(fn(found, it.value()));
    }
  }
  return {};
}

Result<void> read_string(const Json& v, const Field& f, std::string& out) {
  if (v.is_null()) {
    return {};
  }
  if (!v.is_string()) {
    return std::unexpected(go_type_error(v, f.strct, f.path, "string"));
  }
  out = v.get<std::string>();
  return {};
}

Result<void> read_string_list(const Json& v, const Field& f, std::vector<std::string>& out) {
  if (v.is_null()) {
    out.clear();
    return {};
  }
  if (!v.is_array()) {
    return std::unexpected(go_type_error(v, f.strct, f.path, "[]string"));
  }
  out.clear();
  out.reserve(v.size());
  for (const auto& item : v) {
    std::string s;
    OPM_TRY(read_string(item, f, s));
    out.push_back(std::move(s));
  }
  return {};
}

// A list of structs: null -> nullopt, each element decoded by `element`. `JsonT` is Json or
// const Json.
template <typename T, typename JsonT, typename Fn>
Result<void> read_list(JsonT& v, const Field& f, std::string_view go_elem,
                       std::optional<std::vector<T>>& out, Fn&& element) {
  if (v.is_null()) {
    out.reset();
    return {};
  }
  if (!v.is_array()) {
    return std::unexpected(go_type_error(v, f.strct, f.path, fmt::format("[]{}", go_elem)));
  }
  std::vector<T> items;
  items.reserve(v.size());
  for (auto& item : v) {
    T value{};
    if (!item.is_null()) {
      if (!item.is_object()) {
        return std::unexpected(go_type_error(item, f.strct, f.path, go_elem));
      }
      OPM_TRY(element(item, value));
    }
    items.push_back(std::move(value));
  }
  out = std::move(items);
  return {};
}

// Property values are moved out of `v`, which keeps its members' names.
Result<void> read_properties(Json& v, const Field& f, std::vector<Property>& out) {
  std::optional<std::vector<Property>> list;
  OPM_TRY(read_list<Property>(
      v, f, "property.Property", list, [&](Json& item, Property& p) -> Result<void> {
        // A missing value (Go: an empty json.RawMessage) differs from an explicit null.
        p.value = Json(Json::value_t::discarded);
        constexpr std::array<std::string_view, 2> k_names{"type", "value"};
        return for_fields(item, k_names, [&](std::size_t i, Json& value) -> Result<void> {
          if (i == 0) {
            return read_string(value, {"Property", join_path(f.path, "type")}, p.type);
          }
          p.value = std::move(value);
          return {};
        });
      }));
  out = list ? std::move(*list) : std::vector<Property>{};
  return {};
}

Result<void> read_icon(const Json& v, std::optional<Icon>& out) {
  if (v.is_null()) {
    out.reset();
    return {};
  }
  if (!v.is_object()) {
    return std::unexpected(go_type_error(v, "Package", "icon", "declcfg.Icon"));
  }
  Icon icon;
  constexpr std::array<std::string_view, 2> k_names{"base64data", "mediatype"};
  OPM_TRY(for_fields(v, k_names, [&](std::size_t i, const Json& value) -> Result<void> {
    if (i == 1) {
      return read_string(value, {"Icon", "icon.mediatype"}, icon.mediatype);
    }
    if (value.is_null()) {
      icon.data.reset();
      return {};
    }
    if (!value.is_string()) {
      return std::unexpected(go_type_error(value, "Icon", "icon.base64data", "[]uint8"));
    }
    auto bytes = util::base64_decode(value.get_ref<const std::string&>());
    if (!bytes) {
      return std::unexpected(std::move(bytes).error());
    }
    icon.data = std::move(*bytes);
    return {};
  }));
  out = std::move(icon);
  return {};
}

} // namespace

Result<Package> decode_package(Json& blob) {
  Package p;
  constexpr std::array<std::string_view, 5> k_names{"name", "defaultChannel", "icon", "description",
                                                    "properties"};
  OPM_TRY(for_fields(blob, k_names, [&](std::size_t i, Json& v) -> Result<void> {
    switch (i) {
    case 0:
      return read_string(v, {"Package", "name"}, p.name);
    case 1:
      return read_string(v, {"Package", "defaultChannel"}, p.default_channel);
    case 2:
      return read_icon(v, p.icon);
    case 3:
      return read_string(v, {"Package", "description"}, p.description);
    default:
      return read_properties(v, {"Package", "properties"}, p.properties);
    }
  }));
  return p;
}

Result<Channel> decode_channel(Json& blob) {
  Channel c;
  constexpr std::array<std::string_view, 4> k_names{"name", "package", "entries", "properties"};
  OPM_TRY(for_fields(blob, k_names, [&](std::size_t i, Json& v) -> Result<void> {
    switch (i) {
    case 0:
      return read_string(v, {"Channel", "name"}, c.name);
    case 1:
      return read_string(v, {"Channel", "package"}, c.package);
    case 2:
      return read_list<ChannelEntry>(
          v, {"Channel", "entries"}, "declcfg.ChannelEntry", c.entries,
          [](const Json& item, ChannelEntry& e) -> Result<void> {
            constexpr std::array<std::string_view, 4> k_entry{"name", "replaces", "skips",
                                                              "skipRange"};
            return for_fields(item, k_entry, [&](std::size_t k, const Json& ev) -> Result<void> {
              switch (k) {
              case 0:
                return read_string(ev, {"ChannelEntry", "entries.name"}, e.name);
              case 1:
                return read_string(ev, {"ChannelEntry", "entries.replaces"}, e.replaces);
              case 2:
                return read_string_list(ev, {"ChannelEntry", "entries.skips"}, e.skips);
              default:
                return read_string(ev, {"ChannelEntry", "entries.skipRange"}, e.skip_range);
              }
            });
          });
    default:
      return read_properties(v, {"Channel", "properties"}, c.properties);
    }
  }));
  return c;
}

Result<Bundle> decode_bundle(Json& blob) {
  Bundle b;
  constexpr std::array<std::string_view, 5> k_names{"name", "package", "image", "properties",
                                                    "relatedImages"};
  OPM_TRY(for_fields(blob, k_names, [&](std::size_t i, Json& v) -> Result<void> {
    switch (i) {
    case 0:
      return read_string(v, {"Bundle", "name"}, b.name);
    case 1:
      return read_string(v, {"Bundle", "package"}, b.package);
    case 2:
      return read_string(v, {"Bundle", "image"}, b.image);
    case 3:
      return read_properties(v, {"Bundle", "properties"}, b.properties);
    default: {
      std::optional<std::vector<RelatedImage>> list;
      OPM_TRY(read_list<RelatedImage>(
          v, {"Bundle", "relatedImages"}, "declcfg.RelatedImage", list,
          [](const Json& item, RelatedImage& r) -> Result<void> {
            constexpr std::array<std::string_view, 2> k_ri{"name", "image"};
            return for_fields(item, k_ri, [&](std::size_t k, const Json& rv) -> Result<void> {
              if (k == 0) {
                return read_string(rv, {"RelatedImage", "relatedImages.name"}, r.name);
              }
              return read_string(rv, {"RelatedImage", "relatedImages.image"}, r.image);
            });
          }));
      b.related_images = list ? std::move(*list) : std::vector<RelatedImage>{};
      return {};
    }
    }
  }));
  return b;
}

Result<Deprecation> decode_deprecation(const Json& blob) {
  Deprecation d;
  constexpr std::array<std::string_view, 2> k_names{"package", "entries"};
  OPM_TRY(for_fields(blob, k_names, [&](std::size_t i, const Json& v) -> Result<void> {
    if (i == 0) {
      return read_string(v, {"Deprecation", "package"}, d.package);
    }
    return read_list<DeprecationEntry>(
        v, {"Deprecation", "entries"}, "declcfg.DeprecationEntry", d.entries,
        [](const Json& item, DeprecationEntry& e) -> Result<void> {
          constexpr std::array<std::string_view, 2> k_entry{"reference", "message"};
          return for_fields(item, k_entry, [&](std::size_t k, const Json& ev) -> Result<void> {
            if (k == 1) {
              return read_string(ev, {"DeprecationEntry", "entries.message"}, e.message);
            }
            if (ev.is_null()) {
              return {};
            }
            if (!ev.is_object()) {
              return std::unexpected(go_type_error(ev, "DeprecationEntry", "entries.reference",
                                                   "declcfg.PackageScopedReference"));
            }
            constexpr std::array<std::string_view, 2> k_ref{"schema", "name"};
            return for_fields(ev, k_ref, [&](std::size_t r, const Json& rv) -> Result<void> {
              if (r == 0) {
                return read_string(rv, {"PackageScopedReference", "entries.reference.schema"},
                                   e.reference.schema);
              }
              return read_string(rv, {"PackageScopedReference", "entries.reference.name"},
                                 e.reference.name);
            });
          });
        });
  }));
  return d;
}

std::string dropped_property_member(const Json& entry) {
  constexpr std::array<std::string_view, 2> k_names{"type", "value"};
  if (!entry.is_object()) {
    return {};
  }
  for (auto it = entry.begin(); it != entry.end(); ++it) {
    std::size_t field = field_of(it.key(), k_names);
    if (field == k_names.size()) {
      return it.key();
    }
    // Go stores each matching member in turn: all but the last are lost.
    for (auto later = std::next(it); later != entry.end(); ++later) {
      if (field_of(later.key(), k_names) == field) {
        return it.key();
      }
    }
  }
  return {};
}

} // namespace opm::catalog
