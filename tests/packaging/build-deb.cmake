# cmake -DCPACK=<cpack> -DCONFIG=<build>/CPackConfig.cmake -DOUT=<dir> -P build-deb.cmake
# Builds the Debian package from the current build into a fresh OUT, which then holds one .deb.
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${CPACK}" -G DEB --config "${CONFIG}" -B "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cpack -G DEB failed (${rc})")
endif()
file(GLOB debs "${OUT}/*.deb")
list(LENGTH debs n)
if(NOT n EQUAL 1)
    message(FATAL_ERROR "expected one .deb in ${OUT}, found ${n}: ${debs}")
endif()
file(SIZE "${debs}" size)
message(STATUS "built ${debs} (${size} bytes)")
