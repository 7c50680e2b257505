# mcast4ai_ns3_version_definitions(VERSION OUT): the compile definitions that tell
# src/core/model/ns3-compat.h which ns-3 the module is built against. VERSION is a release
# ("3.37", "3.46.1") or a development tree's "3-dev", which counts as newer than every release.
function(mcast4ai_ns3_version_definitions version out)
    if(version MATCHES "^([0-9]+)\\.([0-9]+)")
        set(major ${CMAKE_MATCH_1})
        set(minor ${CMAKE_MATCH_2})
    elseif(version MATCHES "^([0-9]+)-dev")
        set(major ${CMAKE_MATCH_1})
        set(minor 9999)
    else()
        message(FATAL_ERROR "mcast4ai: cannot read the ns-3 version \"${version}\"")
    endif()
    set(${out}
        MCAST4AI_NS3_VERSION_MAJOR=${major} MCAST4AI_NS3_VERSION_MINOR=${minor}
        MCAST4AI_NS3_VERSION_STRING="${version}"
        PARENT_SCOPE)
endfunction()
