# FindcJSON: cJSON, the JSON parser libtendon_io is built on (Debian's libcjson-dev).
# Gives the imported target cJSON::cJSON and the cache variables CJSON_INCLUDE_DIR (the folder
# holding cjson/cJSON.h) and CJSON_LIBRARY. Searches CMAKE_PREFIX_PATH and the system's folders.
# Installed beside tendonConfig.cmake, so that the package finds cJSON on the user's machine
# instead of naming the library file of the machine tendon was built on.
find_path(CJSON_INCLUDE_DIR cjson/cJSON.h)
find_library(CJSON_LIBRARY cjson)
mark_as_advanced(CJSON_INCLUDE_DIR CJSON_LIBRARY)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(cJSON REQUIRED_VARS CJSON_LIBRARY CJSON_INCLUDE_DIR
  REASON_FAILURE_MESSAGE "install cJSON (Debian: apt-get install libcjson-dev) or add its prefix to CMAKE_PREFIX_PATH")
if(cJSON_FOUND AND NOT TARGET cJSON::cJSON)
  add_library(cJSON::cJSON UNKNOWN IMPORTED)
  set_target_properties(cJSON::cJSON PROPERTIES
    IMPORTED_LOCATION "${CJSON_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CJSON_INCLUDE_DIR}")
endif()
