# The ctest gltf_export_valid: test_gltf_save --write exports the generated humanoid with all
# its clips baked at 30 frames/s and its skinned body (as .glb and .gltf) and the skinned shared-data characters re-
# exported with their meshes (Fox.glb, CesiumMan.gltf; a visible skip without TENDON_DATA, a
# failure under CI=true), then the Khronos glTF validator (npm package gltf-validator, installed
# by scripts/install-deps.sh) checks every file: any error or warning fails. Without node or the
# validator the test is skipped visibly, except under CI=true where that is a failure.
# Run as: cmake -DWRITER=... -DSCRIPT=tests/gltf_validate.js -DMODULES=<node_modules> -DOUT=<dir> -P this
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND "${WRITER}" --write "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gltf_export_valid: writing the files failed (${rc})")
endif()
find_program(NODE_EXECUTABLE NAMES node nodejs)
if(NOT NODE_EXECUTABLE OR NOT EXISTS "${MODULES}/gltf-validator/package.json")
  set(why "node (${NODE_EXECUTABLE}) or the validator (${MODULES}/gltf-validator) is missing; run scripts/install-deps.sh")
  if("$ENV{CI}" STREQUAL "true")
    message(FATAL_ERROR "gltf_export_valid: ${why} (a failure under CI=true)")
  endif()
  message("gltf_export_valid: SKIP: ${why}")
  return()
endif()
file(GLOB files "${OUT}/*.glb" "${OUT}/*.gltf")
list(LENGTH files count)
if(count LESS 2)
  message(FATAL_ERROR "gltf_export_valid: expected at least the two humanoid files in ${OUT}, found ${count}")
endif()
execute_process(COMMAND "${NODE_EXECUTABLE}" "${SCRIPT}" --modules "${MODULES}" ${files} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gltf_export_valid: the validator reports errors or warnings (exit ${rc})")
endif()
