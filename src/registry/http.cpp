#include "registry/http.hpp"

#include <algorithm>
#include <cctype>

namespace opm::registry {

namespace {
bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}
} // namespace

std::optional<std::string> Request::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (iequals(k, name)) {
      return v;
    }
  }
  return std::nullopt;
}

void Request::set_header(std::string name, std::string value) {
  remove_header(name);
  headers.emplace_back(std::move(name), std::move(value));
}

void Request::remove_header(std::string_view name) {
  std::erase_if(headers, [&](const auto& kv) { return iequals(kv.first, name); });
}

std::optional<std::string> Response::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (iequals(k, name)) {
      return v;
    }
  }
  return std::nullopt;
}

std::vector<std::string> Response::all(std::string_view name) const {
  std::vector<std::string> out;
  for (const auto& [k, v] : headers) {
    if (iequals(k, name)) {
      out.push_back(v);
    }
  }
  return out;
}

std::string Url::hostname() const {
  if (!host.empty() && host.front() == '[') {
    return host.substr(1, host.find(']') - 1);
  }
  return host.substr(0, host.find(':'));
}

int Url::port() const {
  std::string_view h = host;
  std::size_t colon = std::string_view::npos;
  if (!h.empty() && h.front() == '[') {
    auto close = h.find(']');
    if (close != std::string_view::npos && close + 1 < h.size() && h[close + 1] == ':') {
      colon = close + 1;
    }
  } else {
    colon = h.find(':');
  }
  if (colon != std::string_view::npos) {
    int p = 0;
    for (char c : h.substr(colon + 1)) {
      if (c < '0' || c > '9') {
        return 0;
      }
      p = p * 10 + (c - '0');
    }
    return p;
  }
  return scheme == "https" ? 443 : 80;
}

std::optional<Url> parse_url(std::string_view url) {
  auto sep = url.find("://");
  if (sep == std::string_view::npos) {
    return std::nullopt;
  }
  Url u;
  u.scheme = std::string(url.substr(0, sep));
  std::transform(u.scheme.begin(), u.scheme.end(), u.scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string_view rest = url.substr(sep + 3);
  auto slash = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, slash);
  if (auto at = authority.rfind('@'); at != std::string_view::npos) {
    authority = authority.substr(at + 1);
  }
  u.host = std::string(authority);
  u.path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (!u.path.empty() && u.path.front() != '/') {
    u.path.insert(0, "/");
  }
  if (u.host.empty()) {
    return std::nullopt;
  }
  return u;
}

std::string resolve_url(std::string_view base, std::string_view ref) {
  if (ref.find("://") != std::string_view::npos) {
    return std::string(ref);
  }
  auto b = parse_url(base);
  if (!b) {
    return std::string(ref);
  }
  if (ref.starts_with("//")) {
    return b->scheme + ":" + std::string(ref);
  }
  if (ref.starts_with('/')) {
    return b->origin() + std::string(ref);
  }
  std::string path = b->path.substr(0, b->path.find_first_of("?#"));
  if (ref.starts_with('?')) {
    return b->origin() + path + std::string(ref);
  }
  path = path.substr(0, path.rfind('/') + 1);
  return b->origin() + path + std::string(ref);
}

std::string redact_url(std::string_view url) {
  std::string out(url);
  if (auto sep = out.find("://"); sep != std::string::npos) {
    auto end = out.find_first_of("/?#", sep + 3);
    auto at = out.rfind('@', end == std::string::npos ? out.size() : end);
    if (at != std::string::npos && at > sep) {
      out.erase(sep + 3, at - sep - 2);
    }
  }
  auto q = out.find('?');
  if (q == std::string::npos) {
    return out;
  }
  std::string result = out.substr(0, q + 1);
  std::string_view query = std::string_view(out).substr(q + 1);
  bool first = true;
  while (!query.empty()) {
    auto amp = query.find('&');
    std::string_view kv = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    auto eq = kv.find('=');
    std::string key(kv.substr(0, eq));
    std::string lower = key;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    bool secret =
        lower.find("token") != std::string::npos || lower.find("signature") != std::string::npos ||
        lower.find("password") != std::string::npos || lower.find("secret") != std::string::npos ||
        lower.find("credential") != std::string::npos || lower == "sig" ||
        lower == "x-amz-security-token" || lower == "_state";
    if (!first) {
      result += '&';
    }
    first = false;
    result += secret && eq != std::string_view::npos ? key + "=redacted" : std::string(kv);
  }
  return result;
}

std::string url_encode(std::string_view s) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += k_hex[c >> 4];
      out += k_hex[c & 15];
    }
  }
  return out;
}

} // namespace opm::registry
