# ctest `install`: installs the build into a scratch prefix, builds tests/install against it
# (CMake package and pkg-config) and runs both programs, which must print the README's line.
# Inputs: BUILD_DIR, SOURCE_DIR, EXAMPLE (the extracted README example), WORK (scratch folder).
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install -B ${WORK}/consumer
                        -DCMAKE_PREFIX_PATH=${WORK}/prefix -DEXAMPLE_SOURCE=${EXAMPLE}
                        "-DCMAKE_BUILD_RPATH=${WORK}/prefix/lib"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc)
  message(FATAL_ERROR "configuring the consumer failed:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc)
  message(FATAL_ERROR "building the consumer failed:\n${out}")
endif()
foreach(program with_cmake_package with_pkg_config)
  execute_process(COMMAND ${WORK}/consumer/${program} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(rc OR NOT out MATCHES "elbow at \\(0\\.212, 0\\.212, 0\\.000\\)")
    message(FATAL_ERROR "${program} printed '${out}' (exit ${rc})")
  endif()
  message(STATUS "${program}: ${out}")
endforeach()
execute_process(COMMAND ${WORK}/consumer/io_with_cmake_package RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(rc)
  message(FATAL_ERROR "io_with_cmake_package printed '${out}' (exit ${rc})")
endif()
message(STATUS "io_with_cmake_package: ${out}")
if(NOT EXISTS ${WORK}/prefix/bin/tendon)
  message(FATAL_ERROR "the tendon tool is not installed")
endif()
