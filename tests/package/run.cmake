# The installed package works from another project: installs the build tree BUILD_DIR into a
# prefix under WORK_DIR, configures tests/package (a user's project) against it with
# find_package(crowd), builds samples/api_example.cpp, game_loop_example.cpp and
# obstacles_example.cpp there and runs them (each exits non-zero unless its agents arrive).
#   cmake -DSOURCE_DIR=... -DBUILD_DIR=... -DWORK_DIR=... -DCXX=... -P tests/package/run.cmake
cmake_minimum_required(VERSION 3.24)

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ok")
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run_step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run_step("configure the user's project"
         ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/package -B ${WORK_DIR}/build
         -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix}
         -DCROWD_SAMPLES_DIR=${SOURCE_DIR}/samples)
run_step("build it" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run_step("run api_example" ${WORK_DIR}/build/api_example)
if(NOT last_output MATCHES "both arrived: yes")
  message(FATAL_ERROR "api_example built against the package did not report arrivals:\n"
                      "${last_output}")
endif()
run_step("run game_loop_example" ${WORK_DIR}/build/game_loop_example)
if(NOT last_output MATCHES "all arrived: yes")
  message(FATAL_ERROR "game_loop_example built against the package did not report arrivals:\n"
                      "${last_output}")
endif()
run_step("run obstacles_example" ${WORK_DIR}/build/obstacles_example)
if(NOT last_output MATCHES "all arrived: yes")
  message(FATAL_ERROR "obstacles_example built against the package did not report arrivals:\n"
                      "${last_output}")
endif()
