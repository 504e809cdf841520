#pragma once

#include "sqlite/bundle_insert.hpp"
#include "sqlite/connection.hpp"
#include "util/error.hpp"

// The alpha substitutes-for rewriting of `index add --enable-alpha` (upstream v1.26.5's
// sqlLoader.addSubstitutesFor): a bundle annotated `olm.substitutesFor: B` takes B's place in
// the upgrade graph by rewriting the replaces, skips and substitutesfor columns of the
// operatorbundle rows; the channel walk then reads the rewritten columns.
namespace opm::sqlite {

// Runs for every bundle added with alpha features on, after its operatorbundle row exists:
//  - bundles whose replaces is B now replace the new bundle;
//  - of several bundles substituting for B the one with the higher version (build metadata
//    counts, see util::semver::build_id_compare) substitutes for the other and gains its
//    skips and name as skips; equal versions fail with
//    "cannot determine latest substitution because of duplicate versions";
//  - the new bundle skips every bundle of its substitution chain, a skipped bundle's
//    substitutes are skipped too, and its replaces moves to the newest substitute of its
//    replaces target.
// Errors are returned bare; the caller wraps them as "failed to add substitutes : ...".
Result<void> add_substitutes_for(Connection& db, const NewBundle& bundle);

} // namespace opm::sqlite
