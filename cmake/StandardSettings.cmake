option(OPM_DEV_MODE "Developer build: warnings are errors" ON)
option(OPM_WERROR "Treat warnings as errors" ${OPM_DEV_MODE})
set(OPM_SANITIZE "" CACHE STRING "Sanitizers, e.g. address;undefined")

add_library(opm_settings INTERFACE)
target_compile_definitions(opm_settings INTERFACE $<$<CONFIG:Debug>:_GLIBCXX_ASSERTIONS>)
foreach(s IN LISTS OPM_SANITIZE)
  target_compile_options(opm_settings INTERFACE -fsanitize=${s} -fno-omit-frame-pointer
                                                -fno-sanitize-recover=all)
  target_link_options(opm_settings INTERFACE -fsanitize=${s})
endforeach()

add_library(opm_warnings INTERFACE)
target_compile_options(opm_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  -Wcast-align -Wextra-semi $<$<BOOL:${OPM_WERROR}>:-Werror>)

# Unity builds: sources are compiled eight to a unit, so that the third-party headers nearly
# every source includes (nlohmann/json, CLI11, fmt) are parsed an eighth as often, and a full
# build takes about a third of the compile time. OFF compiles each source alone, which is
# quicker when one file changes.
option(OPM_UNITY_BUILD "Compile sources in batches of eight (unity build)" ON)
function(opm_unity_build target)
  set_target_properties(${target} PROPERTIES UNITY_BUILD ${OPM_UNITY_BUILD}
                                             UNITY_BUILD_BATCH_SIZE 8)
endfunction()
