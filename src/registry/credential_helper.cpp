#include "registry/keychain.hpp"
#include "util/process.hpp"

#include <nlohmann/json.hpp>

#include <chrono>

namespace opm::registry {

namespace {

constexpr auto k_helper_time_limit = std::chrono::seconds(60);
constexpr std::string_view k_not_found = "credentials not found in native keychain";

Result<util::ProcessOutcome> run(const Options& options, const std::string& program,
                                 const std::string& input) {
  auto exe =
      util::find_on_path(program, options.getenv("PATH").value_or("/usr/local/bin:/usr/bin:/bin"));
  if (!exe) {
    return util::fail(
        Errc::not_found,
        fmt::format("credential helper {}: executable file not found in $PATH", program));
  }
  std::vector<std::string> env;
  env.reserve(options.env.size());
  for (const auto& [k, v] : options.env) {
    env.push_back(k + "=" + v);
  }
  auto done = util::run_process({.exe = *exe,
                                 .argv = {program, "get"},
                                 .input = input,
                                 .env = std::move(env),
                                 .time_limit = k_helper_time_limit,
                                 .output_limit = std::size_t{1} << 20});
  if (!done) {
    return util::fail(Errc::io,
                      fmt::format("credential helper {}: {}", program, done.error().message()));
  }
  return done;
}

Result<std::optional<Credentials>> ask(const Options& options, const std::string& helper,
                                       const std::string& server) {
  std::string program = "docker-credential-" + helper;
  auto r = OPM_TRY(run(options, program, server));
  if (r.timed_out) {
    return util::fail(Errc::network,
                      fmt::format("credential helper {} timed out after 60s", program));
  }
  if (r.exit_code() != 0) {
    if (r.out.find(k_not_found) != std::string::npos ||
        r.err.find(k_not_found) != std::string::npos) {
      return std::optional<Credentials>{};
    }
    // The helper's output is not echoed: it might hold part of a secret.
    return util::fail(Errc::network, fmt::format("error getting credentials from helper {}: "
                                                 "exit status {}",
                                                 program, r.exit_code()));
  }
  auto doc = nlohmann::json::parse(r.out, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return util::fail(
        Errc::invalid,
        fmt::format("error getting credentials from helper {}: invalid JSON output", program));
  }
  Credentials c;
  c.source = "credential helper " + program;
  std::string user = doc.value("Username", "");
  std::string secret = doc.value("Secret", "");
  if (user == "<token>") {
    c.identity_token = secret;
  } else {
    c.username = user;
    c.password = secret;
  }
  if (c.username.empty() && c.password.empty() && c.identity_token.empty()) {
    return std::optional<Credentials>{};
  }
  return std::optional<Credentials>{std::move(c)};
}

} // namespace

Result<std::optional<Credentials>> run_credential_helper(const Options& options,
                                                         const std::string& helper,
                                                         const std::string& server) {
  if (server == "docker.io") {
    auto first = OPM_TRY(ask(options, helper, "https://index.docker.io/v1/"));
    if (first) {
      return first;
    }
  }
  options.log.debug("asking credential helper docker-credential-{} for {}", helper, server);
  return ask(options, helper, server);
}

} // namespace opm::registry
