// grpc_health_probe: flags parsed as Go's flag package parses them, checked as the tool
// checks them, then one health call through the serve module (serve/probe.hpp).
#include "cmd/health_probe.hpp"

#include "cmd/serve_program.hpp"
#include "serve/probe.hpp"
#include "util/go_duration.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opm::cmd {

namespace {

enum class Kind { boolean, text, duration, header };

struct Flag {
  std::string_view name;
  Kind kind;
  std::string_view usage;
  std::string_view default_text; // shown as " (default ...)" when not empty
};

// Sorted by name, as Go's flag package lists them.
constexpr Flag k_flags[] = {
    {"addr", Kind::text, "(required) tcp host:port to connect", ""},
    {"alts", Kind::boolean, "use ALTS (default: false, INSECURE plaintext transport)", ""},
    {"connect-timeout", Kind::duration, "timeout for establishing connection", "1s"},
    {"gzip", Kind::boolean,
     "use GZIPCompressor for requests and GZIPDecompressor for response (default: false)", ""},
    {"rpc-header", Kind::header,
     "additional RPC headers in 'name: value' format. May specify more than one via multiple "
     "flags.",
     ""},
    {"rpc-timeout", Kind::duration, "timeout for health check rpc", "1s"},
    {"service", Kind::text, "service name to check (default: \"\")", ""},
    {"spiffe", Kind::boolean, "use SPIFFE to obtain mTLS credentials", ""},
    {"tls", Kind::boolean, "use TLS (default: false, INSECURE plaintext transport)", ""},
    {"tls-ca-cert", Kind::text,
     "(with -tls, optional) file containing trusted certificates for verifying server", ""},
    {"tls-client-cert", Kind::text,
     "(with -tls, optional) client certificate for authenticating to the server (requires "
     "-tls-client-key)",
     ""},
    {"tls-client-key", Kind::text,
     "(with -tls) client private key for authenticating to the server (requires "
     "-tls-client-cert)",
     ""},
    {"tls-no-verify", Kind::boolean,
     "(with -tls) don't verify the certificate (INSECURE) presented by the server (default: "
     "false)",
     ""},
    {"tls-server-name", Kind::text,
     "(with -tls) override the hostname used to verify the server certificate", ""},
    {"user-agent", Kind::text, "user-agent header value of health check requests",
     "\"grpc_health_probe\""},
    {"v", Kind::boolean, "verbose logs", ""},
};

struct Parsed {
  serve::ProbeOptions options;
  bool alts = false;
  bool spiffe = false;
};

const Flag* find_flag(std::string_view name) {
  auto it = std::ranges::find(k_flags, name, &Flag::name);
  return it == std::end(k_flags) ? nullptr : &*it;
}

std::string type_name(Kind kind) {
  switch (kind) {
  case Kind::text:
    return " string";
  case Kind::duration:
    return " duration";
  case Kind::header:
    return " value";
  case Kind::boolean:
    break;
  }
  return "";
}

// flag.PrintDefaults, after "Usage of NAME:".
void print_usage(std::ostream& err, std::string_view program) {
  err << "Usage of " << program << ":\n";
  for (const auto& f : k_flags) {
    std::string line = fmt::format("  -{}{}", f.name, type_name(f.kind));
    line += line.size() <= 4 ? "\t" : "\n    \t";
    line += f.usage;
    if (!f.default_text.empty()) {
      line += fmt::format(" (default {})", f.default_text);
    }
    err << line << '\n';
  }
}

std::optional<bool> parse_bool(std::string_view text) {
  for (std::string_view yes : {"1", "t", "T", "TRUE", "true", "True"}) {
    if (text == yes) {
      return true;
    }
  }
  for (std::string_view no : {"0", "f", "F", "FALSE", "false", "False"}) {
    if (text == no) {
      return false;
    }
  }
  return std::nullopt;
}

bool& bool_target(Parsed& p, std::string_view name) {
  serve::ProbeOptions& o = p.options;
  if (name == "alts") {
    return p.alts;
  }
  if (name == "spiffe") {
    return p.spiffe;
  }
  if (name == "gzip") {
    return o.gzip;
  }
  if (name == "tls") {
    return o.tls;
  }
  if (name == "tls-no-verify") {
    return o.tls_no_verify;
  }
  return o.verbose;
}

std::string& text_target(serve::ProbeOptions& o, std::string_view name) {
  if (name == "service") {
    return o.service;
  }
  if (name == "tls-ca-cert") {
    return o.tls_ca_cert;
  }
  if (name == "tls-client-cert") {
    return o.tls_client_cert;
  }
  if (name == "tls-client-key") {
    return o.tls_client_key;
  }
  if (name == "tls-server-name") {
    return o.tls_server_name;
  }
  if (name == "user-agent") {
    return o.user_agent;
  }
  return o.address;
}

// "name: value", both trimmed; an error text otherwise.
std::optional<std::string> add_header(serve::ProbeOptions& o, std::string_view value) {
  auto colon = value.find(':');
  if (colon == std::string_view::npos) {
    return fmt::format("invalid RPC header, expected 'key: value', got {}",
                       util::go_quote(std::string(value)));
  }
  o.headers.emplace_back(util::trim(value.substr(0, colon)), util::trim(value.substr(colon + 1)));
  return std::nullopt;
}

// Sets the flag; the error Go's flag package prints when the value does not parse.
std::optional<std::string> set_value(Parsed& p, const Flag& f, std::string_view value) {
  std::string quoted = util::go_quote(std::string(value));
  switch (f.kind) {
  case Kind::boolean: {
    auto b = parse_bool(value);
    if (!b) {
      return fmt::format("invalid boolean value {} for -{}: parse error", quoted, f.name);
    }
    bool_target(p, f.name) = *b;
    return std::nullopt;
  }
  case Kind::duration: {
    auto d = util::parse_go_duration(value);
    if (!d) {
      return fmt::format("invalid value {} for flag -{}: parse error", quoted, f.name);
    }
    (f.name == "rpc-timeout" ? p.options.rpc_timeout : p.options.connect_timeout) = *d;
    return std::nullopt;
  }
  case Kind::header:
    if (auto error = add_header(p.options, value)) {
      return fmt::format("invalid value {} for flag -{}: {}", quoted, f.name, *error);
    }
    return std::nullopt;
  case Kind::text:
    text_target(p.options, f.name) = std::string(value);
    return std::nullopt;
  }
  return std::nullopt;
}

enum class ParseEnd { done, help, error };

// flag.FlagSet.Parse: flags until the first argument that is not one, or "--".
ParseEnd parse_flags(Parsed& p, std::vector<std::string_view> args, std::string& error) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (arg.size() < 2 || arg.front() != '-') {
      return ParseEnd::done;
    }
    std::string_view name = arg.substr(arg[1] == '-' ? 2 : 1);
    if (arg == "--") {
      return ParseEnd::done;
    }
    if (name.empty() || name.front() == '-' || name.front() == '=') {
      error = fmt::format("bad flag syntax: {}", arg);
      return ParseEnd::error;
    }
    std::optional<std::string_view> value;
    if (auto eq = name.find('='); eq != std::string_view::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const Flag* flag = find_flag(name);
    if (flag == nullptr) {
      if (name == "help" || name == "h") {
        return ParseEnd::help;
      }
      error = fmt::format("flag provided but not defined: -{}", name);
      return ParseEnd::error;
    }
    if (!value && flag->kind == Kind::boolean) {
      value = "true";
    }
    if (!value) {
      if (i + 1 >= args.size()) {
        error = fmt::format("flag needs an argument: -{}", name);
        return ParseEnd::error;
      }
      value = args[++i];
    }
    if (auto refused = set_value(p, *flag, *value)) {
      error = *refused;
      return ParseEnd::error;
    }
  }
  return ParseEnd::done;
}

// The tool's own checks of the parsed flags, in its order; the first failing one's text.
std::optional<std::string> argument_error(const Parsed& p) {
  const serve::ProbeOptions& o = p.options;
  auto positive = [](std::chrono::nanoseconds d, std::string_view name) {
    return d.count() > 0 ? std::nullopt
                         : std::optional<std::string>(
                               fmt::format("-{} must be greater than zero (specified: {})", name,
                                           util::format_go_duration(d)));
  };
  std::pair<bool, std::string_view> rules[] = {
      {o.address.empty(), "-addr not specified"},
      {!o.tls && o.tls_no_verify, "specified -tls-no-verify without specifying -tls"},
      {!o.tls && !o.tls_ca_cert.empty(), "specified -tls-ca-cert without specifying -tls"},
      {!o.tls && !o.tls_client_cert.empty(), "specified -tls-client-cert without specifying -tls"},
      {!o.tls && !o.tls_server_name.empty(), "specified -tls-server-name without specifying -tls"},
      {!o.tls_client_cert.empty() && o.tls_client_key.empty(),
       "specified -tls-client-cert without specifying -tls-client-key"},
      {o.tls_client_cert.empty() && !o.tls_client_key.empty(),
       "specified -tls-client-key without specifying -tls-client-cert"},
      {o.tls_no_verify && !o.tls_ca_cert.empty(),
       "cannot specify -tls-ca-cert with -tls-no-verify (CA cert would not be used)"},
      {o.tls_no_verify && !o.tls_server_name.empty(),
       "cannot specify -tls-server-name with -tls-no-verify (server name would not be used)"},
      {p.alts && o.tls, "cannot specify -alts with -tls"},
      {p.alts, "-alts is not supported: ALTS runs only on Google Cloud"},
  };
  if (o.address.empty()) {
    return std::string(rules[0].second);
  }
  if (auto refused = positive(o.connect_timeout, "connect-timeout")) {
    return refused;
  }
  if (auto refused = positive(o.rpc_timeout, "rpc-timeout")) {
    return refused;
  }
  for (const auto& [broken, text] : rules) {
    if (broken) {
      return std::string(text);
    }
  }
  return std::nullopt;
}

void log_options(std::ostream& err, const serve::ProbeOptions& o) {
  err << "parsed options:\n"
      << fmt::format("> addr={} conn_timeout={} rpc_timeout={}\n", o.address,
                     util::format_go_duration(o.connect_timeout),
                     util::format_go_duration(o.rpc_timeout))
      << fmt::format("> tls={}\n", o.tls);
  if (o.tls) {
    err << fmt::format("  > no-verify={} \n  > ca-cert={}\n  > client-cert={}\n"
                       "  > client-key={}\n  > server-name={}\n",
                       o.tls_no_verify, o.tls_ca_cert, o.tls_client_cert, o.tls_client_key,
                       o.tls_server_name);
  }
}

} // namespace

bool invoked_as_health_probe(const char* argv0) {
  std::string_view name(argv0);
  auto slash = name.rfind('/');
  if (slash != std::string_view::npos) {
    name.remove_prefix(slash + 1);
  }
  return name == "grpc_health_probe";
}

int run_health_probe(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  Parsed parsed;
  std::string error;
  switch (parse_flags(parsed, args, error)) {
  case ParseEnd::help:
    print_usage(std::cerr, argv[0]);
    return 0;
  case ParseEnd::error:
    std::cerr << error << '\n';
    print_usage(std::cerr, argv[0]);
    return 2;
  case ParseEnd::done:
    break;
  }
  if (auto refused = argument_error(parsed)) {
    std::cerr << "error: " << *refused << '\n';
    return serve::probe_invalid_arguments;
  }
  if (parsed.spiffe) {
    std::cerr << "failed to initialize SPIFFE credentials: the SPIFFE Workload API is not "
                 "supported\n";
    return serve::probe_spiffe_failure;
  }
  if (parsed.options.verbose) {
    log_options(std::cerr, parsed.options);
  }
  auto module = probe_module();
  if (!module) {
    std::cerr << "error: " << module.error().message() << '\n';
    return serve::probe_connection_failure;
  }
  return (*module)->probe(parsed.options, std::cerr);
}

} // namespace opm::cmd
