#include "serve/listen.hpp"

#include "util/c_free.hpp"
#include "util/fs.hpp"

#include <fmt/format.h>

#include <netdb.h>
#include <unistd.h>

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <netinet/in.h>
#include <sys/socket.h>

namespace opm::serve {

namespace {

constexpr std::string_view k_pprof_prefix = "could not start pprof endpoint: listen tcp: ";

bool all_digits(std::string_view s) {
  return !s.empty() && std::ranges::all_of(s, [](char c) { return c >= '0' && c <= '9'; });
}

Result<int> parse_port(const std::string& port, std::string_view address, std::string_view prefix) {
  if (port.empty()) {
    return 0;
  }
  if (all_digits(port)) {
    if (port.size() > 5 || std::stoi(port) > 65535) {
      return util::fail(Errc::io, fmt::format("{}address {}: invalid port", prefix, address));
    }
    return std::stoi(port);
  }
  const servent* entry = ::getservbyname(port.c_str(), "tcp");
  if (entry == nullptr) {
    return util::fail(Errc::io, fmt::format("{}address tcp/{}: unknown port", prefix, port));
  }
  return static_cast<int>(ntohs(static_cast<std::uint16_t>(entry->s_port)));
}

} // namespace

Result<int> resolve_port(const std::string& port) {
  return parse_port(port, port, "failed to listen: listen tcp: ");
}

Result<void> check_listen_address(const std::string& address) {
  auto colon = address.rfind(':');
  if (colon == std::string::npos) {
    return util::fail(
        Errc::io, fmt::format("{}address {}: missing port in address", k_pprof_prefix, address));
  }
  OPM_TRY(parse_port(address.substr(colon + 1), address, k_pprof_prefix));
  return {};
}

Result<void> probe_bind(int port, const std::string& port_text) {
  if (port == 0) {
    return {};
  }
  util::Fd fd(::socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) {
    return {}; // no IPv6: leave the check to the server
  }
  int off = 0;
  int on = 1;
  ::setsockopt(fd.fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
  ::setsockopt(fd.fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in6 addr{};
  addr.sin6_family = AF_INET6;
  addr.sin6_addr = in6addr_any;
  addr.sin6_port = htons(static_cast<std::uint16_t>(port));
  int rc = ::bind(fd.fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  int err = errno;
  fd.reset();
  if (rc != 0) {
    return util::fail(Errc::io, fmt::format("failed to listen: listen tcp :{}: bind: {}", port_text,
                                            util::errno_text(err)));
  }
  return {};
}

} // namespace opm::serve
