#include "util/reference.hpp"

#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace opm::util {

namespace {

std::unexpected<Error> invalid(std::string message) {
  return fail(Errc::invalid, std::move(message));
}

bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool is_alnum(char c) { return is_lower_alnum(c) || (c >= 'A' && c <= 'Z'); }
bool is_word(char c) { return is_alnum(c) || c == '_'; }
bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

// path-component: [a-z0-9]+ ( ("." | "_" | "__" | "-"+) [a-z0-9]+ )*
bool is_path_component(std::string_view s) {
  std::size_t i = 0;
  while (true) {
    std::size_t run = i;
    while (i < s.size() && is_lower_alnum(s[i])) {
      ++i;
    }
    if (i == run) {
      return false;
    }
    if (i == s.size()) {
      return true;
    }
    std::size_t sep = i;
    while (i < s.size() && !is_lower_alnum(s[i])) {
      ++i;
    }
    std::string_view separator = s.substr(sep, i - sep);
    bool dashes = std::ranges::all_of(separator, [](char c) { return c == '-'; });
    if (!dashes && separator != "." && separator != "_" && separator != "__") {
      return false;
    }
  }
}

// ":" digits, or nothing.
bool is_optional_port(std::string_view s) {
  return s.empty() ||
         (s.size() > 1 && s.front() == ':' &&
          std::ranges::all_of(s.substr(1), [](char c) { return c >= '0' && c <= '9'; }));
}

// "[" hex, ':' and '.' with at least one ':' "]" [":" port].
bool is_bracketed_ipv6_domain(std::string_view s) {
  std::size_t close = s.find(']');
  if (!s.starts_with('[') || close == std::string_view::npos || close == 1) {
    return false;
  }
  std::string_view address = s.substr(1, close - 1);
  return address.find(':') != std::string_view::npos &&
         std::ranges::all_of(address, [](char c) { return is_hex(c) || c == ':' || c == '.'; }) &&
         is_optional_port(s.substr(close + 1));
}

// domain-component ("." domain-component)* [":" port]; components are alphanumerics with
// inner '-', upper case allowed.
bool is_domain(std::string_view s, Ipv6Hosts ipv6) {
  if (ipv6 == Ipv6Hosts::bracketed && s.starts_with('[')) {
    return is_bracketed_ipv6_domain(s);
  }
  std::string_view host = s;
  if (std::size_t colon = s.find(':'); colon != std::string_view::npos) {
    if (!is_optional_port(s.substr(colon))) {
      return false;
    }
    host = s.substr(0, colon);
  }
  std::size_t start = 0;
  while (true) {
    std::size_t dot = host.find('.', start);
    std::string_view part = host.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (part.empty() || !is_alnum(part.front()) || !is_alnum(part.back()) ||
        !std::ranges::all_of(part, [](char c) { return is_alnum(c) || c == '-'; })) {
      return false;
    }
    if (dot == std::string_view::npos) {
      return true;
    }
    start = dot + 1;
  }
}

// [\w][\w.-]{0,127}
bool is_tag(std::string_view s) {
  return !s.empty() && s.size() <= 128 && is_word(s[0]) &&
         std::ranges::all_of(s, [](char c) { return is_word(c) || c == '.' || c == '-'; });
}

// [A-Za-z][A-Za-z0-9]*([-_+.][A-Za-z][A-Za-z0-9]*)* ":" [0-9A-Fa-f]{32,}
bool is_reference_digest(std::string_view s) {
  std::size_t colon = s.find(':');
  if (colon == std::string_view::npos) {
    return false;
  }
  std::string_view algorithm = s.substr(0, colon);
  std::string_view hex = s.substr(colon + 1);
  if (hex.size() < 32 || !std::ranges::all_of(hex, is_hex)) {
    return false;
  }
  bool at_start = true;
  for (char c : algorithm) {
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (at_start) {
      if (!letter) {
        return false;
      }
      at_start = false;
    } else if (c == '-' || c == '_' || c == '+' || c == '.') {
      at_start = true;
    } else if (!is_alnum(c)) {
      return false;
    }
  }
  return !at_start;
}

// go-digest's anchored grammar: [a-z0-9]+([.+_-][a-z0-9]+)* ":" [a-zA-Z0-9=_-]+
bool is_digest_syntax(std::string_view s) {
  std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon + 1 == s.size()) {
    return false;
  }
  std::string_view algorithm = s.substr(0, colon);
  bool at_start = true;
  for (char c : algorithm) {
    if (is_lower_alnum(c)) {
      at_start = false;
    } else if ((c == '.' || c == '+' || c == '_' || c == '-') && !at_start) {
      at_start = true;
    } else {
      return false;
    }
  }
  if (at_start) {
    return false;
  }
  return std::ranges::all_of(
      s.substr(colon + 1), [](char c) { return is_alnum(c) || c == '=' || c == '_' || c == '-'; });
}

struct Match {
  std::string_view name;
  std::string_view domain;
  std::string_view path;
  std::string_view tag;
  std::string_view digest;
};

// name [":" tag] ["@" digest], the name split into domain and path as the anchored name
// expression does (a first component that is a valid domain is taken as one).
std::optional<Match> match_reference(std::string_view s, Ipv6Hosts ipv6) {
  Match m;
  std::string_view left = s;
  if (std::size_t at = s.find('@'); at != std::string_view::npos) {
    m.digest = s.substr(at + 1);
    if (!is_reference_digest(m.digest)) {
      return std::nullopt;
    }
    left = s.substr(0, at);
  }
  std::size_t last_slash = left.rfind('/');
  std::size_t colon = left.find(':', last_slash == std::string_view::npos ? 0 : last_slash + 1);
  m.name = left;
  if (colon != std::string_view::npos) {
    m.tag = left.substr(colon + 1);
    if (!is_tag(m.tag)) {
      return std::nullopt;
    }
    m.name = left.substr(0, colon);
  }
  std::size_t first_slash = m.name.find('/');
  if (first_slash != std::string_view::npos && is_domain(m.name.substr(0, first_slash), ipv6)) {
    m.domain = m.name.substr(0, first_slash);
    m.path = m.name.substr(first_slash + 1);
  } else {
    m.path = m.name;
  }
  std::size_t start = 0;
  while (true) {
    std::size_t slash = m.path.find('/', start);
    if (!is_path_component(
            m.path.substr(start, slash == std::string_view::npos ? slash : slash - start))) {
      return std::nullopt;
    }
    if (slash == std::string_view::npos) {
      return m;
    }
    start = slash + 1;
  }
}

// Whether Go's strings.ToLower would change `s`: upper-case letters and invalid UTF-8
// (which becomes U+FFFD). Non-ASCII coverage is limited to the common scripts.
bool lowercase_changes(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (const auto byte = static_cast<unsigned char>(s[i]); byte < 0x80) { // most of them
      if (byte >= 'A' && byte <= 'Z') {
        return true;
      }
      ++i;
      continue;
    }
    bool valid = true;
    char32_t cp = decode_utf8(s, i, &valid);
    if (!valid) {
      return true;
    }
    if (cp < 0x80) {
      if (cp >= 'A' && cp <= 'Z') {
        return true;
      }
      continue;
    }
    auto in = [cp](char32_t lo, char32_t hi) { return cp >= lo && cp <= hi; };
    bool even = cp % 2 == 0;
    if ((in(0xC0, 0xDE) && cp != 0xD7) || (in(0x100, 0x137) && even) || cp == 0x130 ||
        (in(0x139, 0x148) && !even) || (in(0x14A, 0x177) && even) || cp == 0x178 || cp == 0x179 ||
        cp == 0x17B || cp == 0x17D || cp == 0x386 || in(0x388, 0x38A) || cp == 0x38C ||
        in(0x38E, 0x38F) || in(0x391, 0x3A1) || in(0x3A3, 0x3AB) || in(0x400, 0x42F) ||
        (in(0x460, 0x481) && even) || (in(0x48A, 0x4BF) && even) || in(0x531, 0x556) ||
        in(0x10A0, 0x10C5) || (in(0x1E00, 0x1E94) && even) || (in(0x1EA0, 0x1EFE) && even) ||
        cp == 0x2126 || cp == 0x212A || cp == 0x212B || in(0x2160, 0x216F) || in(0x24B6, 0x24CF) ||
        in(0x2C00, 0x2C2F) || in(0xFF21, 0xFF3A) || in(0x10400, 0x10427)) {
      return true;
    }
  }
  return false;
}

// Go's strings.ToLower, as far as it matters for matching the ASCII grammar.
std::string lower_for_match(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (const char c = s[i]; static_cast<unsigned char>(c) < 0x80) { // most of them
      out += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
      ++i;
      continue;
    }
    std::size_t start = i;
    char32_t cp = decode_utf8(s, i);
    if (cp >= 'A' && cp <= 'Z') {
      out += static_cast<char>(cp - 'A' + 'a');
    } else if (cp == 0x212A) {
      out += 'k'; // KELVIN SIGN
    } else if (cp == 0x130) {
      out += 'i'; // LATIN CAPITAL LETTER I WITH DOT ABOVE
    } else {
      out.append(s.substr(start, i - start));
    }
  }
  return out;
}

// containers/image's reference.Parse.
Result<Reference> parse_plain(std::string_view s, Ipv6Hosts ipv6) {
  auto m = match_reference(s, ipv6);
  if (!m) {
    if (s.empty()) {
      return invalid("repository name must have at least one component");
    }
    if (match_reference(lower_for_match(s), ipv6)) {
      return invalid("repository name must be lowercase");
    }
    return invalid("invalid reference format");
  }
  if (m->name.size() > k_name_max_length) {
    return invalid(
        fmt::format("repository name must not be more than {} characters", k_name_max_length));
  }
  if (!m->digest.empty()) {
    OPM_TRY(validate_digest(m->digest));
  }
  return Reference{std::string(m->domain), std::string(m->path), std::string(m->tag),
                   std::string(m->digest)};
}

bool is_hex_identifier(std::string_view s) {
  return s.size() == 64 && std::ranges::all_of(s, is_lower_hex);
}

} // namespace

std::string Reference::name() const {
  if (domain.empty()) {
    return path;
  }
  std::string out;
  out.reserve(domain.size() + 1 + path.size());
  out += domain;
  out += '/';
  out += path;
  return out;
}

namespace {
// `name` followed by ":tag" and "@digest" when they are set.
std::string with_tag_and_digest(std::string name, const Reference& r) {
  if (!r.tag.empty()) {
    name += ':';
    name += r.tag;
  }
  if (!r.digest.empty()) {
    name += '@';
    name += r.digest;
  }
  return name;
}
} // namespace

std::string Reference::to_string() const { return with_tag_and_digest(name(), *this); }

std::string Reference::familiar_name() const {
  if (domain != k_docker_domain) {
    return name();
  }
  std::string_view p = path;
  std::size_t slash = p.find('/');
  if (slash != std::string_view::npos && p.substr(0, slash) == k_docker_official_namespace &&
      p.find('/', slash + 1) == std::string_view::npos) {
    return std::string(p.substr(slash + 1));
  }
  return path;
}

std::string Reference::familiar_string() const {
  return with_tag_and_digest(familiar_name(), *this);
}

Reference Reference::with_default_tag() const {
  Reference out = *this;
  if (out.name_only()) {
    out.tag = k_default_tag;
  }
  return out;
}

Result<void> validate_digest(std::string_view digest) {
  std::size_t colon = digest.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == digest.size()) {
    return invalid("invalid checksum digest format");
  }
  std::string_view algorithm = digest.substr(0, colon);
  std::string_view encoded = digest.substr(colon + 1);
  std::size_t hex_length = 0;
  if (algorithm == "sha256") {
    hex_length = 64;
  } else if (algorithm == "sha384") {
    hex_length = 96;
  } else if (algorithm == "sha512") {
    hex_length = 128;
  } else {
    if (!is_digest_syntax(digest)) {
      return invalid("invalid checksum digest format");
    }
    return invalid("unsupported digest algorithm");
  }
  if (encoded.size() != hex_length) {
    return invalid("invalid checksum digest length");
  }
  if (!std::ranges::all_of(encoded, is_lower_hex)) {
    return invalid("invalid checksum digest format");
  }
  return {};
}

Result<Reference> parse_reference(std::string_view text, Ipv6Hosts ipv6) {
  if (ipv6 == Ipv6Hosts::bracketed && text.starts_with('[') &&
      !is_bracketed_ipv6_domain(text.substr(0, text.find('/')))) {
    return invalid("invalid reference format");
  }
  if (is_hex_identifier(text)) {
    return invalid(fmt::format(
        "invalid repository name ({}), cannot specify 64-byte hexadecimal strings", text));
  }
  std::string_view domain = k_docker_domain;
  std::string_view remainder = text;
  if (std::size_t slash = text.find('/'); slash != std::string_view::npos) {
    std::string_view first = text.substr(0, slash);
    if (first.find_first_of(".:") != std::string_view::npos || first == "localhost") {
      domain = first;
      remainder = text.substr(slash + 1);
    }
  }
  if (domain == k_docker_legacy_domain) {
    domain = k_docker_domain;
  }
  std::string full;
  full.reserve(domain.size() + text.size() + 9);
  full += domain;
  full += '/';
  if (domain == k_docker_domain && remainder.find('/') == std::string_view::npos) {
    full += k_docker_official_namespace;
    full += '/';
  }
  full += remainder;

  std::string_view remote = std::string_view(full).substr(domain.size() + 1);
  remote = remote.substr(0, remote.find(':'));
  if (lowercase_changes(remote)) {
    return invalid("invalid reference format: repository name must be lowercase");
  }
  return parse_plain(full, ipv6);
}

Result<Reference> parse_canonical_reference(std::string_view text) {
  auto ref = OPM_TRY(parse_reference(text));
  if (ref.to_string() != text) {
    return invalid("repository name must be canonical");
  }
  return ref;
}

} // namespace opm::util
