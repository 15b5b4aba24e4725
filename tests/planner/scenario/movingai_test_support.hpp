#pragma once

// What the Moving AI tests share: the benchmark files, a small map and error checks.

#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

#include "planner/core/result.hpp"
#include "tests/benchmark_files.hpp"

namespace pathscope::movingai_test {

/// The folder of the shared Moving AI benchmark files.
inline std::filesystem::path bench_dir() { return std::filesystem::path(PATHSCOPE_BENCHMARKS_DIR); }

/// One row of the table in the benchmark README.
struct BenchFile {
  const char* map;
  const char* scen;
  int width;
  int height;
  std::size_t problems;
};

inline constexpr std::array<BenchFile, 12> kBenchFiles = {{
    {"arena2.map", "arena2.map.scen", 281, 209, 929},
    {"den312d.map", "den312d.map.scen", 65, 81, 320},
    {"lak303d.map", "lak303d.map.scen", 194, 194, 1060},
    {"brc202d.map", "brc202d.map.scen", 530, 481, 2519},
    {"ht_chantry.map", "ht_chantry.map.scen", 162, 141, 470},
    {"Aftershock.map", "Aftershock.map.scen", 512, 512, 1810},
    {"AR0011SR.map", "AR0011SR.map.scen", 512, 512, 1280},
    {"8room_000.map", "8room_000.map.scen", 512, 512, 1940},
    {"maze512-1-0.map", "maze512-1-0.map.scen", 512, 512, 12120},
    {"random512-10-0.map", "random512-10-0.map.scen", 512, 512, 1780},
    {"Berlin_1_256.map", "Berlin_1_256-even-10.scen", 256, 256, 950},
    {"random-32-32-20.map", "random-32-32-20-random-1.scen", 32, 32, 409},
}};

/// A 4x3 map with every Moving AI character.
inline constexpr std::string_view kSmallMap =
    "type octile\n"
    "height 3\n"
    "width 4\n"
    "map\n"
    "..@T\n"
    ".G.O\n"
    "SWW.\n";

/// The error must be located at `where` and its text must contain every fragment.
inline void check_error(const Error& error, const std::string& where,
                        std::initializer_list<std::string_view> fragments) {
  const std::string text = error.to_string();
  CHECK_MESSAGE(error.where == where, text);
  for (const std::string_view fragment : fragments) {
    CHECK_MESSAGE(text.find(fragment) != std::string::npos, "\"", fragment, "\" not in: ", text);
  }
}

}  // namespace pathscope::movingai_test
