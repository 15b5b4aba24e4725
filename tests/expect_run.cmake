# Runs a command and checks its exit code and output (stdout + stderr).
# cmake -DCMD="a;b;c" -DEXPECT_EXIT=1 [-DEXPECT_REGEX=...] [-DNEEDS=path] -P expect_run.cmake
# NEEDS: a file or folder the command reads that is not part of the repository (the shared
# Moving AI benchmarks); when it is absent the test says so and CTest counts it as skipped
# (SKIP_REGULAR_EXPRESSION "pathscope-skip:").
if(DEFINED NEEDS AND NOT EXISTS "${NEEDS}")
  message(STATUS "pathscope-skip: ${NEEDS} not found; this test needs it")
  return()
endif()
execute_process(COMMAND ${CMD} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT "${code}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "exit code ${code}, expected ${EXPECT_EXIT}\n${all}")
endif()
if(DEFINED EXPECT_REGEX AND NOT all MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match '${EXPECT_REGEX}':\n${all}")
endif()
message(STATUS "ok: exit ${code}\n${all}")
