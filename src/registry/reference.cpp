#include "registry/reference.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace opm::registry {

namespace {

constexpr std::string_view k_docker_domain = "docker.io";
constexpr std::size_t k_max_name_length = 255;

bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool is_alnum(char c) { return is_lower_alnum(c) || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_lower(char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); }

// [a-z0-9]+ ( ( "." | "_" | "__" | "-"+ ) [a-z0-9]+ )*
bool valid_path_component(std::string_view c) {
  if (c.empty() || !is_lower_alnum(c.front()) || !is_lower_alnum(c.back())) {
    return false;
  }
  for (std::size_t i = 0; i < c.size();) {
    if (is_lower_alnum(c[i])) {
      ++i;
      continue;
    }
    std::size_t start = i;
    while (i < c.size() && !is_lower_alnum(c[i])) {
      ++i;
    }
    std::string_view sep = c.substr(start, i - start);
    bool ok = sep == "." || sep == "_" || sep == "__" ||
              std::all_of(sep.begin(), sep.end(), [](char x) { return x == '-'; });
    if (!ok) {
      return false;
    }
  }
  return true;
}

// [a-zA-Z0-9] | [a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]
bool valid_domain_component(std::string_view c) {
  if (c.empty() || !is_alnum(c.front()) || !is_alnum(c.back())) {
    return false;
  }
  return std::all_of(c.begin(), c.end(), [](char x) { return is_alnum(x) || x == '-'; });
}

bool valid_ipv6(std::string_view s) {
  if (s.empty()) {
    return false;
  }
  return std::all_of(s.begin(), s.end(), [](char x) {
    return is_digit(x) || (x >= 'a' && x <= 'f') || (x >= 'A' && x <= 'F') || x == ':' || x == '.';
  });
}

bool valid_domain(std::string_view d) {
  std::string_view host = d;
  std::string_view port;
  if (!d.empty() && d.front() == '[') {
    auto close = d.find(']');
    if (close == std::string_view::npos || !valid_ipv6(d.substr(1, close - 1))) {
      return false;
    }
    std::string_view rest = d.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') {
        return false;
      }
      port = rest.substr(1);
      if (port.empty()) {
        return false;
      }
    }
  } else {
    auto colon = d.find(':');
    if (colon != std::string_view::npos) {
      host = d.substr(0, colon);
      port = d.substr(colon + 1);
      if (port.empty()) {
        return false;
      }
    }
    std::size_t start = 0;
    for (;;) {
      auto dot = host.find('.', start);
      if (!valid_domain_component(host.substr(start, dot - start))) {
        return false;
      }
      if (dot == std::string_view::npos) {
        break;
      }
      start = dot + 1;
    }
  }
  return std::all_of(port.begin(), port.end(), is_digit);
}

// [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}
bool valid_tag(std::string_view t) {
  if (t.empty() || t.size() > 128 || !(is_alnum(t[0]) || t[0] == '_')) {
    return false;
  }
  return std::all_of(t.begin(), t.end(),
                     [](char c) { return is_alnum(c) || c == '_' || c == '.' || c == '-'; });
}

Error invalid(std::string message) { return Error(Errc::invalid, std::move(message)); }

struct Split {
  std::string_view name;
  std::string_view tag;
  std::string_view digest;
};

Result<Split> split_reference(std::string_view text) {
  Split out;
  std::string_view rest = text;
  if (auto at = rest.find('@'); at != std::string_view::npos) {
    out.digest = rest.substr(at + 1);
    rest = rest.substr(0, at);
    if (!is_valid_digest(out.digest)) {
      return std::unexpected(invalid("invalid reference format"));
    }
  }
  auto colon = rest.rfind(':');
  auto slash = rest.rfind('/');
  // A ':' after the last '/' starts the tag; a ']' after it means an IPv6 host with no path.
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
    out.tag = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
    if (!valid_tag(out.tag)) {
      return std::unexpected(invalid("invalid reference format"));
    }
  }
  out.name = rest;
  if (out.name.empty()) {
    return std::unexpected(invalid("invalid reference format"));
  }
  return out;
}

Result<void> validate_path(std::string_view path) {
  std::size_t start = 0;
  bool has_upper = false;
  bool ok = true;
  for (;;) {
    auto slash = path.find('/', start);
    std::string_view c = path.substr(start, slash - start);
    if (!valid_path_component(c)) {
      ok = false;
      std::string lowered(c);
      std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                     [](char x) { return static_cast<char>(std::tolower(x)); });
      if (valid_path_component(lowered)) {
        has_upper = true;
      } else {
        has_upper = false;
        break;
      }
    }
    if (slash == std::string_view::npos) {
      break;
    }
    start = slash + 1;
  }
  if (!ok) {
    return std::unexpected(
        invalid(has_upper ? "invalid reference format: repository name must be lowercase"
                          : "invalid reference format"));
  }
  return {};
}

} // namespace

bool is_valid_digest(std::string_view digest) {
  auto colon = digest.find(':');
  if (colon == std::string_view::npos) {
    return false;
  }
  std::string_view alg = digest.substr(0, colon);
  std::string_view hex = digest.substr(colon + 1);
  std::size_t want = alg == "sha256" ? 64 : alg == "sha512" ? 128 : 0;
  return want != 0 && hex.size() == want && std::all_of(hex.begin(), hex.end(), is_hex_lower);
}

std::string Reference::name() const { return domain + "/" + path; }

std::string Reference::string() const {
  std::string s = name();
  if (!tag.empty()) {
    s += ':';
    s += tag;
  }
  if (!digest.empty()) {
    s += '@';
    s += digest;
  }
  return s;
}

std::string Reference::api_host() const {
  return domain == k_docker_domain ? std::string("registry-1.docker.io") : domain;
}

std::string normalize_registry_host(std::string_view host) {
  if (host == "docker.io" || host == "index.docker.io" || host == "registry-1.docker.io" ||
      host == "registry.hub.docker.com") {
    return std::string(k_docker_domain);
  }
  return std::string(host);
}

bool is_loopback_host(std::string_view hp) {
  std::string_view host = hp;
  if (!hp.empty() && hp.front() == '[') {
    host = hp.substr(1, hp.find(']') - 1);
  } else if (auto colon = hp.rfind(':'); colon != std::string_view::npos && hp.find(':') == colon) {
    host = hp.substr(0, colon);
  }
  if (host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1") {
    return true;
  }
  if (host.starts_with("127.")) {
    return std::all_of(host.begin(), host.end(), [](char c) { return is_digit(c) || c == '.'; });
  }
  return false;
}

Result<Reference> parse_normalized(std::string_view text) {
  auto parts = OPM_TRY(split_reference(text));
  std::string_view name = parts.name;
  Reference ref;
  auto slash = name.find('/');
  std::string_view first = name.substr(0, slash);
  bool first_is_domain =
      slash != std::string_view::npos && (first.find_first_of(".:") != std::string_view::npos ||
                                          first == "localhost" || first.starts_with('['));
  std::string path;
  if (first_is_domain) {
    if (!valid_domain(first)) {
      return std::unexpected(invalid("invalid reference format"));
    }
    ref.domain = first == "index.docker.io" ? std::string(k_docker_domain) : std::string(first);
    path = std::string(name.substr(slash + 1));
  } else {
    ref.domain = std::string(k_docker_domain);
    path = std::string(name);
  }
  OPM_TRY(validate_path(path));
  if (ref.domain == k_docker_domain && path.find('/') == std::string::npos) {
    path = "library/" + path;
  }
  ref.path = std::move(path);
  if (ref.name().size() > k_max_name_length) {
    return std::unexpected(invalid("repository name must not be more than 255 characters"));
  }
  ref.tag = std::string(parts.tag);
  ref.digest = std::string(parts.digest);
  if (ref.tag.empty() && ref.digest.empty()) {
    ref.tag = "latest";
  }
  return ref;
}

Result<Reference> parse_canonical(std::string_view text) {
  auto ref = OPM_TRY(parse_normalized(text));
  auto parts = OPM_TRY(split_reference(text));
  Reference as_written = ref;
  as_written.tag = std::string(parts.tag);
  if (as_written.string() != text) {
    return std::unexpected(invalid(
        fmt::format("repository name must be canonical; did you mean \"{}\"?", ref.string())));
  }
  if (parts.tag.empty() && parts.digest.empty()) {
    return std::unexpected(invalid(fmt::format(
        "Docker reference {} is not for an unknown digest case; tag or digest is needed", text)));
  }
  if (!parts.tag.empty() && !parts.digest.empty()) {
    return std::unexpected(
        invalid("Docker references with both a tag and digest are currently not supported"));
  }
  return ref;
}

} // namespace opm::registry
