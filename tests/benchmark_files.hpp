#pragma once

// The shared Moving AI benchmarks (../shared/benchmarks/movingai) that some tests read: a
// case that needs them and finds them absent says so and is counted as skipped.

#include <cstdio>
#include <filesystem>

namespace pathscope::test {

/// True when the shared Moving AI benchmark folder exists; otherwise prints the line that
/// CTest counts as a skip (`pathscope-skip:`, tests/doctest_tiers.cmake) and returns false.
inline bool movingai_benchmarks_present() {
  const std::filesystem::path dir(PATHSCOPE_BENCHMARKS_DIR);
  std::error_code error;
  if (std::filesystem::is_directory(dir, error)) return true;
  std::printf("pathscope-skip: %s not found; this test case needs the Moving AI benchmarks\n",
              dir.string().c_str());
  return false;
}

}  // namespace pathscope::test

/// Ends the current test case, counted as skipped, when the shared benchmarks are absent.
#define PATHSCOPE_SKIP_WITHOUT_BENCHMARKS()                        \
  do {                                                             \
    if (!::pathscope::test::movingai_benchmarks_present()) return; \
  } while (false)
