# The C API reference builds without a Doxygen warning: docs/Doxyfile run with warnings as
# errors (WARN_AS_ERROR = FAIL_ON_WARNINGS) into a scratch folder. Without doxygen a visible
# skip, or a failure under CI=true (scripts/install-deps.sh installs it).
# cmake -DDOXYGEN=... -DSOURCE=<repository root> -DOUT=<scratch> -P api_docs.cmake
if(NOT DOXYGEN OR NOT EXISTS "${DOXYGEN}")
  if("$ENV{CI}" STREQUAL "true")
    message(FATAL_ERROR "api_docs: doxygen not found (CI=true)")
  endif()
  message("api_docs: SKIP (doxygen not found; scripts/install-deps.sh installs it)")
  return()
endif()
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
file(READ "${SOURCE}/docs/Doxyfile" config)
string(APPEND config "\nOUTPUT_DIRECTORY = ${OUT}\nWARN_AS_ERROR = FAIL_ON_WARNINGS\nSOURCE_BROWSER = NO\nSEARCHENGINE = NO\n")
file(WRITE "${OUT}/Doxyfile" "${config}")
execute_process(COMMAND "${DOXYGEN}" "${OUT}/Doxyfile" WORKING_DIRECTORY "${SOURCE}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "api_docs: doxygen failed (exit ${rc}):\n${out}${err}")
endif()
if(NOT EXISTS "${OUT}/html/index.html" OR NOT EXISTS "${OUT}/html/pose_8h.html")
  message(FATAL_ERROR "api_docs: no html/index.html or html/pose_8h.html in ${OUT}")
endif()
file(GLOB pages "${OUT}/html/*_8h.html")
list(LENGTH pages count)
message("api_docs: ${count} header pages, no warnings")
