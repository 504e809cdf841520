# Stamps the version, commit and build date into version.cpp at configure time.
#
# `opm version` reports the upstream release whose behaviour this opm follows, with this
# implementation's own version as semver build metadata (v1.73.0+cpp.0.1.0), so scripts that
# compare opm versions see the upstream release they expect.
set(OPM_UPSTREAM_VERSION "1.73.0")
set(OPM_FULL_VERSION "v${OPM_UPSTREAM_VERSION}+cpp.${PROJECT_VERSION}")

execute_process(COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
  OUTPUT_VARIABLE OPM_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT OPM_GIT_COMMIT)
  set(OPM_GIT_COMMIT "unknown")
endif()

# The build date is the commit's date unless SOURCE_DATE_EPOCH says otherwise, so that two
# builds of one commit are byte-identical.
set(opm_saved_epoch "$ENV{SOURCE_DATE_EPOCH}")
if(opm_saved_epoch STREQUAL "")
  execute_process(COMMAND git log -1 --format=%ct
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    OUTPUT_VARIABLE opm_commit_epoch OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(opm_commit_epoch MATCHES "^[0-9]+$")
    set(ENV{SOURCE_DATE_EPOCH} "${opm_commit_epoch}")
  endif()
endif()
string(TIMESTAMP OPM_BUILD_DATE "%Y-%m-%dT%H:%M:%SZ" UTC)
set(ENV{SOURCE_DATE_EPOCH} "${opm_saved_epoch}")

set(OPM_VERSION_CPP ${CMAKE_CURRENT_BINARY_DIR}/version.cpp)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/version.cpp.in ${OPM_VERSION_CPP} @ONLY)
