# The serve module (src/serve/) alone sees gRPC and protobuf: its C++ is generated from our
# own .proto files, and its sources are compiled apart with the gRPC include paths.
find_package(Protobuf REQUIRED)
find_package(gRPC CONFIG REQUIRED)
find_program(OPM_GRPC_CPP_PLUGIN grpc_cpp_plugin REQUIRED)

set(opm_proto_dir ${CMAKE_CURRENT_SOURCE_DIR}/src/serve)
set(opm_proto_out ${CMAKE_CURRENT_BINARY_DIR}/generated/serve)
file(MAKE_DIRECTORY ${opm_proto_out})
set(opm_proto_sources)
foreach(name registry health)
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
target_include_directories(opm_serve_proto SYSTEM PUBLIC ${CMAKE_CURRENT_BINARY_DIR}/generated)
target_link_libraries(opm_serve_proto PUBLIC opm_settings ${opm_grpc_libraries})

file(GLOB opm_serve_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/serve/*.cpp)
add_library(opm_serve OBJECT ${opm_serve_sources})
target_include_directories(opm_serve PRIVATE src)
target_link_libraries(opm_serve PRIVATE opm_serve_proto opm_settings opm_warnings
                                        nlohmann_json::nlohmann_json fmt::fmt Threads::Threads)
