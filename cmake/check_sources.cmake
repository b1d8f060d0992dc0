# Fails when a source file on disk is in none of cmake/sources.cmake's lists (a file someone
# added but no target builds, or a test that would never run), or a listed file is gone.
#   cmake -DSOURCE_DIR=<repository> -P cmake/check_sources.cmake
cmake_minimum_required(VERSION 3.24)
include(${SOURCE_DIR}/cmake/sources.cmake)

set(listed)
foreach(file IN LISTS CROWD_CORE_SOURCES CROWD_CUDA_SOURCES CROWD_RENDER_SOURCES
                      CROWD_VIEWER_SOURCES CROWD_CLI_SOURCES CROWD_MPI_SOURCES)
  list(APPEND listed ${file})
endforeach()
foreach(file IN LISTS CROWD_TEST_SOURCES)
  list(APPEND listed tests/${file})
endforeach()
foreach(file IN LISTS CROWD_BENCH_SOURCES)
  list(APPEND listed bench/${file})
endforeach()
# Built by targets of their own (CMakeLists.txt): the CLI's main and the OpenGL interop.
list(APPEND listed host/cli/main.cpp cuda/interop/gl_position_interop.cu)

file(GLOB_RECURSE on_disk RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/host/*.cpp ${SOURCE_DIR}/cuda/*.cpp ${SOURCE_DIR}/cuda/*.cu
     ${SOURCE_DIR}/tests/cuda/*.cpp ${SOURCE_DIR}/tests/host/*.cpp ${SOURCE_DIR}/tests/cli/*.cpp
     ${SOURCE_DIR}/tests/render/*.cpp ${SOURCE_DIR}/bench/*.cpp)
# npm's packages under tests/host/output/openusd are not ours.
list(FILTER on_disk EXCLUDE REGEX "/node_modules/")

set(problems)
foreach(file IN LISTS on_disk)
  if(NOT file IN_LIST listed)
    list(APPEND problems "  ${file}: on disk but in no list of cmake/sources.cmake")
  endif()
endforeach()
foreach(file IN LISTS listed)
  if(NOT EXISTS ${SOURCE_DIR}/${file})
    list(APPEND problems "  ${file}: listed in cmake/sources.cmake but not on disk")
  endif()
endforeach()
if(problems)
  list(JOIN problems "\n" text)
  message(FATAL_ERROR "cmake/sources.cmake does not match the tree:\n${text}")
endif()
list(LENGTH listed count)
message(STATUS "cmake/sources.cmake lists all ${count} source files")
