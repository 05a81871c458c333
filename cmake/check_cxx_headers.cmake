# ctest `cxx_headers`: every public header (include/tendon/**/*.h) compiles on its own as C++11
# with warnings as errors, and one that declares functions wraps them in extern "C" (or a C++
# program would not link them). Without a C++ compiler a visible skip, or a failure under CI=true
# (scripts/install-deps.sh installs g++).
# cmake -DCXX=<C++ compiler> -DSOURCE=<repository root> -DOUT=<scratch> -P check_cxx_headers.cmake
if(NOT CXX OR NOT EXISTS "${CXX}")
  if("$ENV{CI}" STREQUAL "true")
    message(FATAL_ERROR "cxx_headers: no C++ compiler found (CI=true)")
  endif()
  message("cxx_headers: SKIP (no C++ compiler found; scripts/install-deps.sh installs g++)")
  return()
endif()
file(REMOVE_RECURSE "${OUT}")
file(GLOB_RECURSE headers RELATIVE "${SOURCE}/include" "${SOURCE}/include/tendon/*.h")
list(SORT headers)
set(failed "")
foreach(header ${headers})
  string(MAKE_C_IDENTIFIER "${header}" name)
  set(unit "${OUT}/${name}.cpp")
  file(WRITE "${unit}" "#include <${header}>\n")
  execute_process(COMMAND "${CXX}" -std=c++11 -Wall -Wextra -Werror -pedantic -fsyntax-only
                          -I "${SOURCE}/include" "${unit}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc)
    string(APPEND failed "${header}:\n${out}\n")
  endif()
  file(READ "${SOURCE}/include/${header}" text)
  if(text MATCHES "TDN_API" AND NOT text MATCHES "extern \"C\"")
    string(APPEND failed "${header}: declares functions outside extern \"C\"\n")
  endif()
endforeach()
list(LENGTH headers count)
if(failed)
  message(FATAL_ERROR "cxx_headers: not every header is usable from C++ (${CXX}):\n${failed}")
endif()
message("cxx_headers: ${count} headers compile as C++11 with ${CXX}")
