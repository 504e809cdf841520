# `cpack` in a build tree makes a Debian package of what `cmake --install` installs: opm,
# opm-serve in lib/opm, man pages and completions, stripped. Depends are the packages of
# exactly the shared libraries the two executables load, as dpkg-shlibdeps
# finds them (needs dpkg-dev), and libcurl's and libarchive's, which opm loads by name.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME opm)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "validate, render and serve Operator Lifecycle Manager file-based catalogs")
set(CPACK_PACKAGE_DESCRIPTION
    "A drop-in compatible opm: validate, render, init, generate dockerfile, serve and the\n\
SQLite index commands, with upstream opm's output bytes, flags and exit codes.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "opm maintainers <opm@localhost>"
    CACHE STRING "the package's Maintainer field")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# opm loads libcurl, libarchive and OpenSSL when it first needs them (src/util/shared_library.hpp),
# so dpkg-shlibdeps cannot see them; their packages are named here and the found ones added.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libarchive13, libcurl4, libssl3")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_BINARY_DIR})
# mimalloc speeds up the commands that run and exit; without it they run on glibc's heap
# (src/heap/batch_heap.cpp).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ca-certificates, libmimalloc2.0")
include(CPack)
