# ctest `install`: a user's three ways to use tendon, each building tests/install/consumer.c
# (both libraries: a BVH file read by libtendon_io, sampled by the core) and running it:
#   1. pkg-config alone: plain compiler command lines from `pkg-config --cflags --libs`, shared
#      libraries from the install prefix, and `--static` against a prefix holding only the archives;
#   2. find_package(tendon) alone (tests/install), static and shared, with the README's example;
#   3. add_subdirectory() of the source tree (tests/install/subproject), which checks that only
#      the libraries are defined.
# The install goes into one folder which is then moved, so the package must not name it. The
# installed libtendon_io.so needs libtendon.so.0 and finds it beside itself (RUNPATH $ORIGIN).
# Inputs: BUILD_DIR, SOURCE_DIR, WORK (scratch folder), CC (the C compiler), PKG_CONFIG,
# EXAMPLE (the README's example, extracted), CJSON_LIBRARY (the file the build linked), SHARED
# (TENDON_BUILD_SHARED: whether the shared libraries are built).
set(consumer ${SOURCE_DIR}/tests/install/consumer.c)
set(bvh ${SOURCE_DIR}/tests/install/arm.bvh)
# Worked out in consumer.c's comment.
set(consumer_line "arm: 2 joints, 1\\.0 s; hand at \\(0\\.712, 0\\.212, 0\\.000\\)")
set(readme_line "elbow at \\(0\\.212, 0\\.212, 0\\.000\\)")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${command}\n${out}")
  endif()
endfunction()

# check_output(NAME EXPECTED_REGEX COMMAND...): runs a built program and checks what it printed.
function(check_output name expected)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc OR NOT out MATCHES "${expected}")
    message(FATAL_ERROR "${name} printed '${out}${err}' (exit ${rc}), expected '${expected}'")
  endif()
  string(STRIP "${out}" out)
  message(STATUS "${name}: ${out}")
endfunction()

# pkg_config(OUT PREFIX ARGS...): pkg-config's output for the .pc files of PREFIX, as a list.
function(pkg_config out prefix)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig ${PKG_CONFIG} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE flags ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc)
    message(FATAL_ERROR "pkg-config ${ARGN} failed: ${err}")
  endif()
  list(JOIN ARGN " " arguments)
  message(STATUS "pkg-config ${arguments}: ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/staged)
file(RENAME ${WORK}/staged ${WORK}/prefix)
set(prefix ${WORK}/prefix)
if(NOT EXISTS ${prefix}/bin/tendon)
  message(FATAL_ERROR "the tendon tool is not installed")
endif()

# The package names no folder of this machine: not the install folder, the build or source
# trees, nor cJSON's library file (found again by cmake/FindcJSON.cmake on the user's machine).
file(GLOB package_files ${prefix}/lib/cmake/tendon/*.cmake ${prefix}/lib/pkgconfig/*.pc)
foreach(file ${package_files})
  file(READ ${file} text)
  foreach(path ${WORK}/staged ${BUILD_DIR} ${SOURCE_DIR} ${CJSON_LIBRARY})
    string(FIND "${text}" "${path}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${file} names ${path}")
    endif()
  endforeach()
endforeach()

# The installed io library records its own dependencies and finds the core beside it: every
# consumer below also links libtendon itself (and sets LD_LIBRARY_PATH), so only its dynamic
# section shows a missing NEEDED entry or RUNPATH.
if(SHARED)
  find_program(READELF NAMES readelf)
  if(NOT READELF)
    message(FATAL_ERROR "no readelf to read ${prefix}/lib/libtendon_io.so")
  endif()
  execute_process(COMMAND ${READELF} -d ${prefix}/lib/libtendon_io.so OUTPUT_VARIABLE dynamic RESULT_VARIABLE rc)
  if(rc OR NOT dynamic MATCHES "NEEDED[^\n]*\\[libtendon\\.so\\.0\\]"
     OR NOT dynamic MATCHES "(RUNPATH|RPATH)[^\n]*\\[\\$ORIGIN\\]")
    message(FATAL_ERROR "libtendon_io.so does not need libtendon.so.0 with a RUNPATH of $ORIGIN:\n${dynamic}")
  endif()
endif()

# 1. pkg-config alone. Shared: the libraries are found at run time through LD_LIBRARY_PATH,
# as for any prefix outside the linker's default folders.
if(SHARED)
  pkg_config(flags ${prefix} --cflags --libs tendon_io)
  run(${CC} ${consumer} -o ${WORK}/pc_shared ${flags})
  check_output("pkg-config, shared" "${consumer_line}" ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${prefix}/lib
               ${WORK}/pc_shared ${bvh})
endif()
pkg_config(flags ${prefix} --cflags --libs tendon)
run(${CC} ${EXAMPLE} -o ${WORK}/pc_readme ${flags})
check_output("pkg-config, README example" "${readme_line}" ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${prefix}/lib
             ${WORK}/pc_readme)
# Static: in a prefix holding only the archives (what -DTENDON_BUILD_SHARED=OFF installs) the
# linker takes them, and `--static` must bring everything they need (the core, cJSON, libm).
file(COPY ${prefix}/ DESTINATION ${WORK}/static-prefix PATTERN "*.so*" EXCLUDE)
pkg_config(flags ${WORK}/static-prefix --static --cflags --libs tendon_io)
run(${CC} ${consumer} -o ${WORK}/pc_static ${flags})
check_output("pkg-config --static" "${consumer_line}" ${WORK}/pc_static ${bvh})

# 2. find_package(tendon) alone.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install -B ${WORK}/find_package -DCMAKE_C_COMPILER=${CC}
    -DCMAKE_PREFIX_PATH=${prefix} -DEXAMPLE_SOURCE=${EXAMPLE})
run(${CMAKE_COMMAND} --build ${WORK}/find_package)
check_output("find_package, tendon::tendon_io" "${consumer_line}" ${WORK}/find_package/consumer_static ${bvh})
if(SHARED)
  check_output("find_package, tendon::tendon_io_shared" "${consumer_line}" ${WORK}/find_package/consumer_shared ${bvh})
endif()
check_output("find_package, README example" "${readme_line}" ${WORK}/find_package/readme_example)

# 3. add_subdirectory(): only the consumer and the libraries it needs are built.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install/subproject -B ${WORK}/subproject -DCMAKE_C_COMPILER=${CC}
    -DTENDON_SOURCE_DIR=${SOURCE_DIR})
run(${CMAKE_COMMAND} --build ${WORK}/subproject --target consumer --parallel 2)
check_output("add_subdirectory" "${consumer_line}" ${WORK}/subproject/consumer ${bvh})
