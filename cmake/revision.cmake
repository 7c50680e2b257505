# Run at every build (target mcast4ai-revision): writes OUT with the source tree's git revision,
# and only when it changed, so that a commit rebuilds one file and a result's "revision" is
# never the one the build directory was configured at.
#
# Only the module's own repository counts: a copy dropped into an ns-3 tree's contrib/ would
# otherwise report ns-3's revision. A copy without its repository may carry the revision in
# .mcast4ai-revision (scripts/check-ns3-contrib.sh writes it).
set(revision "")
execute_process(
    COMMAND git rev-parse --show-toplevel
    WORKING_DIRECTORY ${SOURCE_DIR}
    OUTPUT_VARIABLE toplevel
    OUTPUT_STRIP_TRAILING_WHITESPACE
    ERROR_QUIET)
if(toplevel)
    get_filename_component(toplevel "${toplevel}" REALPATH)
    get_filename_component(source "${SOURCE_DIR}" REALPATH)
endif()
if(toplevel AND toplevel STREQUAL source)
    execute_process(
        COMMAND git describe --always --dirty
        WORKING_DIRECTORY ${SOURCE_DIR}
        OUTPUT_VARIABLE revision
        OUTPUT_STRIP_TRAILING_WHITESPACE
        ERROR_QUIET)
elseif(EXISTS ${SOURCE_DIR}/.mcast4ai-revision)
    file(STRINGS ${SOURCE_DIR}/.mcast4ai-revision revision LIMIT_COUNT 1)
endif()
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
