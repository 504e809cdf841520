# Cross-building for 64-bit ARM on Debian 12 with its cross toolchain and multiarch libraries:
#   dpkg --add-architecture arm64 && apt-get update
#   scripts/install-deps.sh cross-arm64
#   cmake --preset release -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake -B build/arm64
# protoc and grpc_cpp_plugin run on the build machine; everything linked is arm64.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
# GCC 12 for aarch64 reports std::optional members as maybe-uninitialized where they are not
# (a known false positive of that release), which warnings-as-errors would turn into failures.
set(CMAKE_CXX_FLAGS_INIT "-Wno-maybe-uninitialized")
