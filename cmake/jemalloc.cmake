# A run allocates and frees millions of packets of mixed sizes (62-byte ACKs, 1 KiB data
# copies); jemalloc (Debian's libjemalloc-dev) does that about a fifth faster than glibc's
# malloc on the 1,024-host benchmarks. Only the runner is linked against it, in the standalone
# build and in an ns-3 tree (scripts/mpi-check.sh) alike.
option(MCAST4AI_JEMALLOC "Link mcast4ai-run against jemalloc when it is installed" ON)

# mcast4ai_use_jemalloc(TARGET [PRIVATE]): PRIVATE where the target's other libraries were
# given with a keyword (the standalone build), nothing where without (ns-3's build_exec): CMake
# takes one signature per target.
function(mcast4ai_use_jemalloc target)
    if(NOT MCAST4AI_JEMALLOC)
        return()
    endif()
    find_library(MCAST4AI_JEMALLOC_LIBRARY NAMES jemalloc)
    if(NOT MCAST4AI_JEMALLOC_LIBRARY)
        message(STATUS "${target} allocates with glibc malloc (libjemalloc-dev not installed)")
        return()
    endif()
    # Nothing references jemalloc by name: it replaces malloc, so keep it past --as-needed.
    target_link_libraries(${target} ${ARGN} -Wl,--no-as-needed ${MCAST4AI_JEMALLOC_LIBRARY}
                          -Wl,--as-needed)
    target_compile_definitions(${target} PRIVATE MCAST4AI_JEMALLOC)
    message(STATUS "${target} allocates with jemalloc: ${MCAST4AI_JEMALLOC_LIBRARY}")
endfunction()
