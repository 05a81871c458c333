# ctest `clang_format`: the C sources and headers follow .clang-format: clang-format --dry-run
# --Werror over every *.c and *.h of src/ include/ tools/ tests/ bench/ fuzz/ examples/. The
# layout it produces changes between clang-format's major versions, so the check runs with
# version 14 (Debian 12's, which scripts/install-deps.sh installs); without it a visible skip, or
# a failure under CI=true. To reformat: clang-format -i on the files named.
# cmake -DCLANG_FORMAT=<clang-format> -DSOURCE=<repository root> -P check_format.cmake
set(wanted_major 14)
set(why "")
if(NOT CLANG_FORMAT OR NOT EXISTS "${CLANG_FORMAT}")
  set(why "clang-format not found")
else()
  execute_process(COMMAND "${CLANG_FORMAT}" --version OUTPUT_VARIABLE version)
  if(NOT version MATCHES "version ${wanted_major}\\.")
    string(STRIP "${version}" version)
    set(why "${CLANG_FORMAT} is '${version}', not version ${wanted_major}")
  endif()
endif()
if(why)
  if("$ENV{CI}" STREQUAL "true")
    message(FATAL_ERROR "clang_format: ${why} (CI=true)")
  endif()
  message("clang_format: SKIP (${why}; scripts/install-deps.sh installs clang-format)")
  return()
endif()
set(files "")
foreach(dir src include tools tests bench fuzz examples)
  file(GLOB_RECURSE found RELATIVE "${SOURCE}" "${SOURCE}/${dir}/*.c" "${SOURCE}/${dir}/*.h")
  list(APPEND files ${found})
endforeach()
list(SORT files)
list(LENGTH files count)
# One report per file that would change (--ferror-limit=1): the file and its first difference.
execute_process(COMMAND "${CLANG_FORMAT}" --style=file --dry-run --Werror --ferror-limit=1 ${files}
                WORKING_DIRECTORY "${SOURCE}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc)
  string(REGEX MATCHALL "[^\n]+: error: code should be clang-formatted" reports "${out}")
  list(LENGTH reports bad)
  message(FATAL_ERROR "clang_format: ${bad} of ${count} files differ from clang-format's layout "
                      "(.clang-format):\n${out}")
endif()
message("clang_format: ${count} files follow .clang-format")
