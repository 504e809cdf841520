# The serve module (src/serve/) alone sees gRPC and protobuf: its C++ is generated from our
# own .proto files, and it is linked only into a second executable, opm-serve, built from the
# same main and opm_lib, to which `opm` hands the serve commands over
# (src/cmd/serve_program.hpp), so that `opm` itself does not link gRPC, protobuf or abseil.
# Included after opm_lib is defined.
find_package(Protobuf REQUIRED)
find_package(gRPC CONFIG REQUIRED)
find_program(OPM_GRPC_CPP_PLUGIN grpc_cpp_plugin REQUIRED)

# opm-serve takes gRPC, protobuf, abseil, RE2 and OpenSSL from their static archives, and is
# not position independent: the loader then opens about 45 fewer libraries at each start and
# has next to nothing to relocate, which takes a fifth off the CPU of a serve start. Where an
# archive is missing, the shared library is used.
option(OPM_SERVE_STATIC "Link opm-serve's gRPC, protobuf, abseil, RE2 and OpenSSL statically" ON)

if(OPM_SERVE_STATIC)
  get_directory_property(opm_imported_targets IMPORTED_TARGETS)
  foreach(target IN LISTS opm_imported_targets)
    if(target MATCHES "^(gRPC::|c-ares::|absl::|protobuf::libprotobuf$|OpenSSL::(SSL|Crypto)$)")
      opm_use_archive(${target})
    endif()
  endforeach()
  # RE2 comes from pkg-config, as link flags.
  find_library(OPM_RE2_ARCHIVE NAMES libre2.a)
  if(TARGET re2::re2 AND OPM_RE2_ARCHIVE)
    set_property(TARGET re2::re2 PROPERTY INTERFACE_LINK_LIBRARIES ${OPM_RE2_ARCHIVE})
  endif()
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
# The module's own code as objects, which opm-serve and the serve unit tests
# (tests/serve/*_test.cpp) both link.
add_library(opm_serve_objects OBJECT ${opm_serve_sources})
opm_unity_build(opm_serve_objects)
set_target_properties(opm_serve_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(opm_serve_objects PUBLIC src)
target_link_libraries(opm_serve_objects PUBLIC opm_lib opm_serve_proto opm_settings
                                               nlohmann_json::nlohmann_json opm_fmt
                                               Threads::Threads ${opm_grpc_libraries}
                                        PRIVATE opm_warnings)

add_executable(opm_serve src/main.cpp $<TARGET_OBJECTS:opm_serve_objects>
                         $<TARGET_OBJECTS:opm_serve_proto>)
set_target_properties(opm_serve PROPERTIES
  OUTPUT_NAME opm-serve
  # Next to `opm` in the build tree, where `opm` looks first.
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
# Linked as `opm` is (CMakeLists.txt), heap included.
if(NOT OPM_SANITIZE)
  target_sources(opm_serve PRIVATE src/heap/batch_heap.cpp src/heap/huge_pages.cpp)
  target_link_options(opm_serve PRIVATE "LINKER:--export-dynamic-symbol=opm_scratch_heap_*"
                                        -no-pie)
endif()
target_link_libraries(opm_serve PRIVATE opm_lib opm_settings opm_warnings
                                        nlohmann_json::nlohmann_json opm_fmt Threads::Threads
                                        ${CMAKE_DL_LIBS} ${opm_grpc_libraries})
opm_link_runtime_statically(opm_serve)
install(TARGETS opm_serve RUNTIME DESTINATION lib/opm)
