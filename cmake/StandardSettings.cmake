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
