// `opm alpha bundle unpack`: a bundle image's files into a directory, checked first.
#include "bundle/image_check.hpp"
#include "cmd/alpha_bundle.hpp"
#include "cmd/registry_options.hpp"
#include "registry/pull_support.hpp"
#include "registry/puller.hpp"
#include "util/fs.hpp"
#include "util/interrupt.hpp"
#include "util/log.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <memory>
#include <sys/stat.h>

namespace opm::cmd::alpha_bundle {

namespace {

namespace fs = std::filesystem;

struct UnpackFlags {
  std::vector<std::string> args;
  bool debug = false;
  bool skip_tls = false;
  bool skip_tls_verify = false;
  bool use_http = false;
  bool skip_validation = false;
  std::string root_ca;
  std::string out = "./";
};

Result<void> io_failure(std::string_view op, const fs::path& path) {
  return util::fail(Errc::io, fmt::format("{} {}: {}", op, path.string(), util::errno_text(errno)));
}

// Removes what is at `path` unless it is a real directory, so that nothing is written
// through a link already in the output directory.
Result<void> clear_for_directory(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    return errno == ENOENT ? Result<void>{} : io_failure("lstat", path);
  }
  if (S_ISDIR(st.st_mode)) {
    return {};
  }
  return ::unlink(path.c_str()) == 0 ? Result<void>{} : io_failure("remove", path);
}

// Copies the unpacked tree into `out`, merging with what is there: directories are made,
// files replaced whole (a temporary file, then a rename), links made again as they are.
// Links in the unpacked tree already point inside it; links found in `out` are replaced,
// never followed.
Result<void> copy_into(const fs::path& from, const fs::path& to) {
  auto entries = OPM_TRY(util::sorted_entries(from));
  for (const auto& entry : entries) {
    fs::path source = from / entry.name;
    fs::path target = to / entry.name;
    struct stat st {};
    if (::lstat(source.c_str(), &st) != 0) {
      return io_failure("lstat", source);
    }
    if (S_ISDIR(st.st_mode)) {
      OPM_TRY(clear_for_directory(target));
      if (::mkdir(target.c_str(), st.st_mode & 07777) != 0 && errno != EEXIST) {
        return io_failure("mkdir", target);
      }
      OPM_TRY(copy_into(source, target));
    } else if (S_ISLNK(st.st_mode)) {
      std::error_code ec;
      auto link = fs::read_symlink(source, ec);
      OPM_TRY(clear_for_directory(target));
      if (ec || ::symlink(link.c_str(), target.c_str()) != 0) {
        return io_failure("symlink", target);
      }
    } else if (S_ISREG(st.st_mode)) {
      auto content = OPM_TRY(util::read_file(source));
      OPM_TRY(util::write_file_atomic(target, content));
      if (::chmod(target.c_str(), st.st_mode & 07777) != 0) {
        return io_failure("chmod", target);
      }
    }
  }
  return {};
}

// The output directory must be a directory when it exists; it is made (unlike upstream,
// only once the bundle has been pulled and checked) when it does not.
Result<void> check_out(const std::string& out) {
  struct stat st {};
  if (::stat(out.c_str(), &st) != 0) {
    return errno == ENOENT ? Result<void>{} : io_failure("stat", out);
  }
  if (!S_ISDIR(st.st_mode)) {
    return util::fail(Errc::invalid, fmt::format("out {} is not a directory", out));
  }
  return {};
}

Result<void> make_out(const std::string& out) {
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) {
    return util::fail(Errc::io, fmt::format("mkdir {}: {}", out, util::errno_text(ec.value())));
  }
  return {};
}

// Checks the unpacked bundle as upstream's unpack does; `log` takes the checks' lines.
Result<void> check_unpacked(const fs::path& dir, const bundle::CheckLog& log) {
  auto format = bundle::check_format(dir, log);
  if (!format.empty()) {
    return util::fail(Errc::invalid,
                      "bundle format validation failed: " + bundle::validation_errors_text(format));
  }
  auto content = bundle::check_content(dir / "manifests", {}, log);
  if (!content.empty()) {
    return util::fail(Errc::invalid, "bundle content validation failed: " +
                                         bundle::validation_errors_text(content));
  }
  return {};
}

Result<void> run_unpack(Context& ctx, const UnpackFlags& f) {
  const std::string& ref = f.args.at(0);
  bool use_http = f.use_http || f.skip_tls || ctx.global.use_http || ctx.global.skip_tls;
  bool skip_verify = f.skip_tls_verify || ctx.global.skip_tls_verify;
  OPM_TRY(registry::check_flag_combination(use_http, skip_verify, f.skip_tls));
  OPM_TRY(check_out(f.out));
  registry::Options options = registry_options(ctx);
  options.use_http = use_http;
  options.skip_tls_verify = skip_verify;
  if (!f.root_ca.empty()) {
    auto pem = OPM_TRY(util::read_file(f.root_ca));
    if (pem.find("-----BEGIN CERTIFICATE-----") == std::string::npos) {
      return util::fail(Errc::invalid, fmt::format("failed to fetch root CA from {}", f.root_ca));
    }
    options.ca_file = f.root_ca;
  }
  options.log = stderr_log(ctx, f.debug || ctx.global.debug ? registry::LogLevel::debug
                                                            : registry::LogLevel::warn);
  util::InterruptScope interrupts;
  util::TempTree work(OPM_TRY(registry::make_temp_dir(options, "bundle-", "unpack directory")));
  fs::path dir = work.path() / "bundle";
  auto puller = registry::make_puller(options);
  auto unpacked = puller->unpack(ref, dir);
  puller->destroy();
  if (!unpacked) {
    return std::unexpected(std::move(unpacked).error());
  }
  const std::vector<util::LogField> fields{{"cmd", "unpack"}};
  if (f.skip_validation) {
    ctx.err << util::logrus_line("info", "skipping bundle validation", ctx.err_is_tty, fields);
  } else {
    OPM_TRY(check_unpacked(dir, [&](std::string_view level, const std::string& message) {
      if (level != "debug" || f.debug || ctx.global.debug) {
        ctx.err << util::logrus_line(level, message, ctx.err_is_tty, fields);
      }
    }));
  }
  OPM_TRY(make_out(f.out));
  auto copied = copy_into(dir, f.out);
  if (!copied) {
    return util::fail(Errc::io, "failed to copy unpacked content to output directory: " +
                                    copied.error().message());
  }
  return {};
}

} // namespace

void add_unpack(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<UnpackFlags>();
  auto* sub =
      add_command(parent, ctx,
                  {.use = "unpack BUNDLE_NAME[:TAG|@DIGEST]",
                   .short_text = "Unpacks the content of an operator bundle",
                   .long_text = "Unpacks the content of an operator bundle into a directory",
                   .args = Args::exact(1)},
                  &flags->args);
  sub->add_flag("-d,--debug", flags->debug, "enable debug log output");
  auto* skip_tls = sub->add_flag("-s,--skip-tls", flags->skip_tls, "use plain HTTP");
  ctx.meta.deprecate(skip_tls, "use --use-http and --skip-tls-verify instead");
  sub->add_flag("--skip-tls-verify", flags->skip_tls_verify, "disable TLS verification");
  sub->add_flag("--use-http", flags->use_http, "use plain HTTP");
  sub->add_flag("-v,--skip-validation", flags->skip_validation, "disable bundle validation");
  sub->add_option("-c,--root-ca", flags->root_ca,
                  "file path of a root CA to use when communicating with image registries");
  sub->add_option("-o,--out", flags->out, "directory in which to unpack operator bundle content");
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.run = [&ctx, flags]() -> Result<void> {
      return as_cobra_error(run_unpack(ctx, *flags));
    };
  });
}

} // namespace opm::cmd::alpha_bundle
