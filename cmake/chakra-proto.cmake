# mcast4ai_chakra_proto(OUT_SOURCES): compile src/workload/model/chakra-et.proto (the part of
# Chakra's execution-trace schema the `chakra` workload reads) with Debian's protoc into
# ${MCAST4AI_GENERATED}, and set OUT_SOURCES to the generated .cc. Generated code is compiled
# without our warnings: it is protoc's, not ours, and -Werror must not depend on its version.
function(mcast4ai_chakra_proto out)
    find_package(Protobuf REQUIRED)
    set(proto_dir ${CMAKE_CURRENT_SOURCE_DIR}/src/workload/model)
    set(cc ${MCAST4AI_GENERATED}/chakra-et.pb.cc)
    set(h ${MCAST4AI_GENERATED}/chakra-et.pb.h)
    add_custom_command(
        OUTPUT ${cc} ${h}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${MCAST4AI_GENERATED}
        COMMAND protobuf::protoc --cpp_out=${MCAST4AI_GENERATED} -I ${proto_dir}
                ${proto_dir}/chakra-et.proto
        DEPENDS ${proto_dir}/chakra-et.proto
        COMMENT "Compiling chakra-et.proto")
    set_source_files_properties(${cc} ${h} PROPERTIES GENERATED TRUE)
    set_source_files_properties(${cc} PROPERTIES COMPILE_OPTIONS "-w")
    set(${out} ${cc} PARENT_SCOPE)
endfunction()
