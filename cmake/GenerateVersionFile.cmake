# Stamps the version and commit into version.cpp at configure time.
execute_process(COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
  OUTPUT_VARIABLE OPM_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT OPM_GIT_COMMIT)
  set(OPM_GIT_COMMIT "unknown")
endif()
set(OPM_VERSION_CPP ${CMAKE_CURRENT_BINARY_DIR}/version.cpp)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/version.cpp.in ${OPM_VERSION_CPP} @ONLY)
