# Run at every build (target mcast4ai-revision): writes OUT with the source tree's git revision,
# and only when it changed, so that a commit rebuilds one file and a result's "revision" is
# never the one the build directory was configured at.
execute_process(
    COMMAND git describe --always --dirty
    WORKING_DIRECTORY ${SOURCE_DIR}
    OUTPUT_VARIABLE revision
    OUTPUT_STRIP_TRAILING_WHITESPACE
    ERROR_QUIET)
if(NOT revision)
    set(revision "unknown")
endif()
set(content "#define MCAST4AI_REVISION \"${revision}\"\n")
set(old "")
if(EXISTS ${OUT})
    file(READ ${OUT} old)
endif()
if(NOT old STREQUAL content)
    file(WRITE ${OUT} "${content}")
endif()
