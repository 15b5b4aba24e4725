# Runs a command and checks its exit code and output (stdout + stderr).
# cmake -DCMD="a;b;c" -DEXPECT_EXIT=1 [-DEXPECT_REGEX=...] -P expect_run.cmake
execute_process(COMMAND ${CMD} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT "${code}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "exit code ${code}, expected ${EXPECT_EXIT}\n${all}")
endif()
if(DEFINED EXPECT_REGEX AND NOT all MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match '${EXPECT_REGEX}':\n${all}")
endif()
message(STATUS "ok: exit ${code}\n${all}")
