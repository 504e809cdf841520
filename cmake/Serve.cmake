# The serve module (src/serve/) alone sees gRPC and protobuf: its C++ is generated from our
# own .proto files, and it is built as a shared module, opm-serve.so, that `opm` dlopen()s
# only for the serve commands (src/cmd/serve_module.cpp), so that `opm` itself does not link
# gRPC, protobuf or abseil. The module links the parts of opm_lib it uses (catalog loading,
# validation, util) from the static library, which is therefore position independent.
# Included after opm_lib is defined.
find_package(Protobuf REQUIRED)
find_package(gRPC CONFIG REQUIRED)
find_program(OPM_GRPC_CPP_PLUGIN grpc_cpp_plugin REQUIRED)

# gRPC's own libraries go into the module from their static archives (Debian's are position
# independent): its symbols are then bound when the module is linked, not looked up by name
# at every start, and the loader opens seven fewer libraries. This takes 8% off the CPU of a
# serve start. protobuf and abseil stay shared: their archives use local-exec TLS, which a
# shared module cannot hold. Where the archives are missing, the shared libraries are used.
option(OPM_SERVE_STATIC_GRPC "Link gRPC into the serve module from its static archives" ON)
if(OPM_SERVE_STATIC_GRPC)
  foreach(target gRPC::gpr gRPC::upb gRPC::address_sorting gRPC::grpc gRPC::grpc++
                 gRPC::grpc++_reflection c-ares::cares)
    if(NOT TARGET ${target})
      continue()
    endif()
    foreach(property IMPORTED_LOCATION IMPORTED_LOCATION_NONE)
      get_target_property(location ${target} ${property})
      if(location)
        string(REGEX REPLACE "\\.so(\\.[0-9]+)*$" ".a" archive "${location}")
        if(EXISTS "${archive}")
          set_target_properties(${target} PROPERTIES ${property} "${archive}")
        endif()
      endif()
    endforeach()
  endforeach()
endif()

set(opm_proto_dir ${CMAKE_CURRENT_SOURCE_DIR}/src/serve)
set(opm_proto_out ${CMAKE_CURRENT_BINARY_DIR}/generated/serve)
file(MAKE_DIRECTORY ${opm_proto_out})
set(opm_proto_sources)
foreach(name registry health reflection_v1)
  set(outputs ${opm_proto_out}/${name}.pb.cc ${opm_proto_out}/${name}.pb.h
              ${opm_proto_out}/${name}.grpc.pb.cc ${opm_proto_out}/${name}.grpc.pb.h)
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND protobuf::protoc --proto_path=${opm_proto_dir} --cpp_out=${opm_proto_out}
            --grpc_out=${opm_proto_out} --plugin=protoc-gen-grpc=${OPM_GRPC_CPP_PLUGIN}
            ${opm_proto_dir}/${name}.proto
    DEPENDS ${opm_proto_dir}/${name}.proto
    COMMENT "Generating C++ from ${name}.proto")
  list(APPEND opm_proto_sources ${opm_proto_out}/${name}.pb.cc ${opm_proto_out}/${name}.grpc.pb.cc)
endforeach()

set(opm_grpc_libraries gRPC::grpc++ gRPC::grpc++_reflection protobuf::libprotobuf)

# Generated code: compiled without the project's warning flags.
add_library(opm_serve_proto OBJECT ${opm_proto_sources})
set_target_properties(opm_serve_proto PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(opm_serve_proto SYSTEM PUBLIC ${CMAKE_CURRENT_BINARY_DIR}/generated)
target_link_libraries(opm_serve_proto PUBLIC opm_settings ${opm_grpc_libraries})

file(GLOB opm_serve_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/serve/*.cpp)
# The module's own code as objects, which the module and the serve unit tests
# (tests/serve/*_test.cpp) both link.
add_library(opm_serve_objects OBJECT ${opm_serve_sources})
opm_unity_build(opm_serve_objects)
set_target_properties(opm_serve_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(opm_serve_objects PUBLIC src)
target_link_libraries(opm_serve_objects PUBLIC opm_lib opm_serve_proto opm_settings
                                               nlohmann_json::nlohmann_json fmt::fmt
                                               Threads::Threads ${opm_grpc_libraries}
                                        PRIVATE opm_warnings)

add_library(opm_serve MODULE $<TARGET_OBJECTS:opm_serve_objects>
                             $<TARGET_OBJECTS:opm_serve_proto>)
set_target_properties(opm_serve PROPERTIES
  OUTPUT_NAME opm-serve PREFIX ""
  # Next to `opm` in the build tree, where the loader looks first.
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
target_link_libraries(opm_serve PRIVATE opm_lib opm_settings nlohmann_json::nlohmann_json fmt::fmt
                                        Threads::Threads ${opm_grpc_libraries})
# The module's copy of opm_lib stays private to it; libraries opm_lib would pull in but the
# module does not use are not recorded as needed.
target_link_options(opm_serve PRIVATE -Wl,--exclude-libs,ALL -Wl,--as-needed -Wl,--no-undefined)
# Only the entry points are exported: references to the module's own code and data are then
# bound at link time instead of looked up by name at every start (2,900 of its relocations).
set(opm_serve_exports ${CMAKE_CURRENT_SOURCE_DIR}/cmake/serve-module.map)
target_link_options(opm_serve PRIVATE -Wl,--version-script=${opm_serve_exports})
set_target_properties(opm_serve PROPERTIES LINK_DEPENDS ${opm_serve_exports})
install(TARGETS opm_serve LIBRARY DESTINATION lib/opm)
