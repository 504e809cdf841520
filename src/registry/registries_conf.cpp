#include "registry/registries_conf.hpp"

#include "registry/keychain.hpp"
#include "registry/toml.hpp"
#include "util/fs.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace opm::registry {

namespace fs = std::filesystem;

namespace {

Result<bool> get_bool(const toml::table& t, std::string_view key, std::string_view name) {
  auto node = t.get(key);
  if (node == nullptr) {
    return false;
  }
  if (auto b = node->value<bool>()) {
    return *b;
  }
  return util::fail(Errc::invalid, fmt::format("{}: \"{}\" must be a boolean", name, key));
}

Result<std::string> get_string(const toml::table& t, std::string_view key, std::string_view name) {
  auto node = t.get(key);
  if (node == nullptr) {
    return std::string{};
  }
  if (auto s = node->value<std::string>()) {
    return *s;
  }
  return util::fail(Errc::invalid, fmt::format("{}: \"{}\" must be a string", name, key));
}

std::vector<std::string> string_list(const toml::node* node) {
  std::vector<std::string> out;
  if (const auto* arr = node != nullptr ? node->as_array() : nullptr) {
    for (const auto& e : *arr) {
      if (auto s = e.value<std::string>()) {
        out.push_back(*s);
      }
    }
  }
  return out;
}

// The part of a prefix or location that names the host.
std::string host_of(std::string_view s) { return std::string(s.substr(0, s.find('/'))); }

bool prefix_matches(std::string_view prefix, std::string_view ref, std::string_view host) {
  if (prefix.starts_with("*.")) {
    std::string_view suffix = prefix.substr(1); // ".example.com"
    return host.size() > suffix.size() && host.ends_with(suffix);
  }
  if (!ref.starts_with(prefix)) {
    return false;
  }
  if (ref.size() == prefix.size()) {
    return true;
  }
  char next = ref[prefix.size()];
  return next == '/' || next == ':' || next == '@';
}

Result<Reference> rewrite(const Reference& ref, const std::string& prefix,
                          const std::string& location) {
  std::string full = ref.to_string();
  std::string text = location + full.substr(prefix.size());
  auto parsed = parse_normalized(text);
  if (!parsed) {
    return util::fail(Errc::invalid,
                      fmt::format("rewriting {} with registries.conf location \"{}\": {}", full,
                                  location, parsed.error().message()));
  }
  return parsed;
}

} // namespace

Result<void> RegistriesConf::merge(std::string_view text, std::string_view name) {
  toml::table doc;
  try {
    doc = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    return util::fail(Errc::invalid, fmt::format("loading registries configuration \"{}\": {}",
                                                 name, std::string(e.description())));
  }
  if (const auto* v1 = doc.get_as<toml::table>("registries")) {
    if (const auto* ins = v1->get_as<toml::table>("insecure")) {
      for (auto& r : string_list(ins->get("registries"))) {
        m_v1_insecure.insert(r);
      }
    }
    if (const auto* blk = v1->get_as<toml::table>("block")) {
      for (auto& r : string_list(blk->get("registries"))) {
        m_v1_blocked.insert(r);
      }
    }
  }
  if (auto helpers = string_list(doc.get("credential-helpers")); !helpers.empty()) {
    m_credential_helpers = std::move(helpers);
  }
  const auto* regs = doc.get_as<toml::array>("registry");
  if (regs == nullptr) {
    return {};
  }
  for (const auto& node : *regs) {
    const auto* t = node.as_table();
    if (t == nullptr) {
      return util::fail(Errc::invalid, fmt::format("{}: [[registry]] must be a table", name));
    }
    RegistryEntry e;
    e.prefix = OPM_TRY(get_string(*t, "prefix", name));
    e.location = OPM_TRY(get_string(*t, "location", name));
    e.insecure = OPM_TRY(get_bool(*t, "insecure", name));
    e.blocked = OPM_TRY(get_bool(*t, "blocked", name));
    e.mirror_by_digest_only = OPM_TRY(get_bool(*t, "mirror-by-digest-only", name));
    if (e.prefix.empty()) {
      e.prefix = e.location;
    }
    if (e.prefix.empty()) {
      return util::fail(Errc::invalid,
                        fmt::format("{}: a [[registry]] needs a prefix or a location", name));
    }
    if (e.prefix.starts_with("*.") && !e.location.empty() && e.location != e.prefix) {
      return util::fail(
          Errc::invalid,
          fmt::format("{}: wildcarded prefix \"{}\" cannot have a location", name, e.prefix));
    }
    if (const auto* mirrors = t->get_as<toml::array>("mirror")) {
      for (const auto& m : *mirrors) {
        const auto* mt = m.as_table();
        if (mt == nullptr) {
          continue;
        }
        MirrorEntry me;
        me.location = OPM_TRY(get_string(*mt, "location", name));
        me.insecure = OPM_TRY(get_bool(*mt, "insecure", name));
        std::string from = OPM_TRY(get_string(*mt, "pull-from-mirror", name));
        if (from == "digest-only") {
          me.pull_from = PullFrom::digest_only;
        } else if (from == "tag-only") {
          me.pull_from = PullFrom::tag_only;
        } else if (from.empty() || from == "all") {
          me.pull_from = PullFrom::all;
        } else {
          return util::fail(
              Errc::invalid,
              fmt::format("{}: unsupported pull-from-mirror value \"{}\"", name, from));
        }
        if (me.location.empty()) {
          return util::fail(Errc::invalid, fmt::format("{}: a mirror needs a location", name));
        }
        e.mirrors.push_back(std::move(me));
      }
    }
    auto same = std::find_if(m_entries.begin(), m_entries.end(),
                             [&](const RegistryEntry& x) { return x.prefix == e.prefix; });
    if (same != m_entries.end()) {
      *same = std::move(e);
    } else {
      m_entries.push_back(std::move(e));
    }
  }
  return {};
}

Result<RegistriesConf> RegistriesConf::load(const Options& options) {
  RegistriesConf conf;
  auto add_file = [&](const fs::path& p) -> Result<void> {
    auto text = util::read_file(p);
    if (!text) {
      if (text.error().code() == Errc::not_found) {
        return {};
      }
      return std::unexpected(std::move(text).error());
    }
    return conf.merge(*text, p.string());
  };
  auto add_dir = [&](const fs::path& dir) -> Result<void> {
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.path().extension() == ".conf") {
        files.push_back(e.path());
      }
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      OPM_TRY(add_file(f));
    }
    return {};
  };
  std::string explicit_path = options.registries_conf;
  if (explicit_path.empty()) {
    explicit_path = options.getenv("CONTAINERS_REGISTRIES_CONF").value_or("");
  }
  if (!explicit_path.empty()) {
    OPM_TRY(add_file(explicit_path));
    return conf;
  }
  fs::path user_dir;
  if (auto cfg = options.getenv("XDG_CONFIG_HOME")) {
    user_dir = fs::path(*cfg) / "containers";
  } else if (auto home = options.getenv("HOME")) {
    user_dir = fs::path(*home) / ".config" / "containers";
  }
  std::error_code ec;
  if (!user_dir.empty() && fs::exists(user_dir / "registries.conf", ec)) {
    OPM_TRY(add_file(user_dir / "registries.conf"));
    OPM_TRY(add_dir(user_dir / "registries.conf.d"));
    return conf;
  }
  OPM_TRY(add_file("/etc/containers/registries.conf"));
  OPM_TRY(add_dir("/etc/containers/registries.conf.d"));
  if (!user_dir.empty()) {
    OPM_TRY(add_dir(user_dir / "registries.conf.d"));
  }
  return conf;
}

const RegistryEntry* RegistriesConf::match(const Reference& ref) const {
  std::string full = ref.to_string();
  const RegistryEntry* best = nullptr;
  for (const auto& e : m_entries) {
    if (prefix_matches(e.prefix, full, ref.domain)) {
      // Longest prefix wins; an exact prefix beats any wildcard.
      bool wildcard = e.prefix.starts_with("*.");
      bool best_wildcard = best != nullptr && best->prefix.starts_with("*.");
      if (best == nullptr || (best_wildcard && !wildcard) ||
          (wildcard == best_wildcard && e.prefix.size() > best->prefix.size())) {
        best = &e;
      }
    }
  }
  return best;
}

Result<std::vector<PullSource>> RegistriesConf::sources(const Reference& ref) const {
  std::vector<PullSource> out;
  if (m_v1_blocked.contains(ref.domain)) {
    return util::fail(Errc::invalid,
                      fmt::format("registry {} is blocked in registries.conf", ref.domain));
  }
  const RegistryEntry* e = match(ref);
  if (e == nullptr) {
    out.push_back({ref, m_v1_insecure.contains(ref.domain), false});
    return out;
  }
  if (e->blocked) {
    return util::fail(Errc::invalid,
                      fmt::format("registry {} is blocked in registries.conf", e->prefix));
  }
  bool wildcard = e->prefix.starts_with("*.");
  bool by_digest = !ref.digest.empty();
  for (const auto& m : e->mirrors) {
    if (!by_digest && (e->mirror_by_digest_only || m.pull_from == PullFrom::digest_only)) {
      continue;
    }
    if (by_digest && m.pull_from == PullFrom::tag_only) {
      continue;
    }
    Reference mirrored = ref;
    if (wildcard) {
      mirrored = OPM_TRY(rewrite(ref, ref.domain, m.location));
    } else {
      mirrored = OPM_TRY(rewrite(ref, e->prefix, m.location));
    }
    out.push_back(
        {std::move(mirrored), m.insecure || m_v1_insecure.contains(host_of(m.location)), true});
  }
  Reference primary = ref;
  if (!wildcard && !e->location.empty() && e->location != e->prefix) {
    primary = OPM_TRY(rewrite(ref, e->prefix, e->location));
  }
  out.push_back({std::move(primary), e->insecure || m_v1_insecure.contains(primary.domain), false});
  return out;
}

std::vector<std::string> RegistriesConf::credential_helpers() const {
  if (m_credential_helpers.empty()) {
    return {std::string(k_auth_files_helper)};
  }
  return m_credential_helpers;
}

} // namespace opm::registry
