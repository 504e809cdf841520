#include "cmd/registry_options.hpp"

namespace opm::cmd {

registry::Options registry_options(const Context& ctx) {
  registry::Options o;
  o.use_http = ctx.global.use_http || ctx.global.skip_tls;
  o.skip_tls_verify = ctx.global.skip_tls_verify;
  o.env = ctx.env.vars;
  o.cache_dir = registry::default_cache_dir(ctx.env.vars);
  o.limits = registry::limits_from_env(ctx.env.vars);
  return o;
}

} // namespace opm::cmd
