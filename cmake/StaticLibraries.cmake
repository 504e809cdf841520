# What the executables link into themselves. fmt's and toml++'s compiled parts are always built
# in (src/util/fmt_library.cpp, src/registry/toml_library.cpp). With OPM_STATIC_LIBRARIES, so
# are libstdc++, libgcc, libyaml, SQLite and zlib, from their archives: the loader then opens
# only libc and libm at each start and resolves next to nothing, where each shared library
# cost its mapping, its relocations and their page faults. On a 2-core VM that took a fifth
# off a failing `opm serve` and three fifths off `opm version`. Not in the sanitizer builds,
# whose runtimes want the shared C++ library. Where an archive is missing, the shared library
# is used.
option(OPM_STATIC_LIBRARIES "Link libstdc++, libgcc, libyaml, SQLite and zlib statically" ON)
if(OPM_SANITIZE)
  set(OPM_STATIC_LIBRARIES OFF)
endif()

# Points an imported library target at the static archive beside its shared library.
function(opm_use_archive target)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    # pkg-config targets name their libraries as link items.
    get_target_property(items ${target} INTERFACE_LINK_LIBRARIES)
    set(archives)
    foreach(item IN LISTS items)
      string(REGEX REPLACE "\\.so(\\.[0-9]+)*$" ".a" archive "${item}")
      if(NOT archive STREQUAL item AND EXISTS "${archive}")
        set(item "${archive}")
      endif()
      list(APPEND archives "${item}")
    endforeach()
    set_property(TARGET ${target} PROPERTY INTERFACE_LINK_LIBRARIES "${archives}")
    return()
  endif()
  if(NOT type MATCHES "^(SHARED|STATIC|UNKNOWN)_LIBRARY$")
    return()
  endif()
  foreach(property IMPORTED_LOCATION IMPORTED_LOCATION_NONE IMPORTED_LOCATION_RELEASE
                   IMPORTED_LOCATION_RELWITHDEBINFO)
    get_target_property(location ${target} ${property})
    if(location)
      string(REGEX REPLACE "\\.so(\\.[0-9]+)*$" ".a" archive "${location}")
      if(EXISTS "${archive}")
        set_target_properties(${target} PROPERTIES ${property} "${archive}")
      endif()
    endif()
  endforeach()
endfunction()

if(OPM_STATIC_LIBRARIES)
  foreach(target PkgConfig::yaml SQLite::SQLite3 ZLIB::ZLIB)
    opm_use_archive(${target})
  endforeach()
endif()

# Links libstdc++ and libgcc into an executable, when OPM_STATIC_LIBRARIES says so.
function(opm_link_runtime_statically target)
  if(OPM_STATIC_LIBRARIES)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
endfunction()

# fmt's and toml++'s headers, without their shared libraries.
add_library(opm_fmt INTERFACE)
target_include_directories(opm_fmt SYSTEM INTERFACE
                           $<TARGET_PROPERTY:fmt::fmt,INTERFACE_INCLUDE_DIRECTORIES>)
add_library(opm_toml INTERFACE)
target_include_directories(opm_toml SYSTEM INTERFACE
                           $<TARGET_PROPERTY:PkgConfig::tomlplusplus,INTERFACE_INCLUDE_DIRECTORIES>)
target_compile_definitions(opm_toml INTERFACE TOML_HEADER_ONLY=0)
