#pragma once

// Moving AI Lab grid benchmarks: reading `.map` and `.scen` files, and finding them on
// disk. The file formats and the choices made for malformed input are described at the
// top of movingai_parse.cpp. Checking problems and found lengths: movingai_check.hpp;
// turning a map into a Scenario: movingai_convert.hpp.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec2.hpp>

#include "planner/core/result.hpp"

namespace pathscope {

/// The characters a Moving AI map may hold, in the order of their terrain types
/// (see movingai_convert.hpp): ground, ground G, out of bounds @ and O, trees, swamp, water.
inline constexpr std::string_view kMovingAiMapChars = ".G@OTSW";

/// A Moving AI `.map` file: a grid of terrain characters.
struct MovingAiMap {
  std::string name;         ///< File name without directory and extension, e.g. "arena2".
  int width = 0;            ///< Cells (1..8192).
  int height = 0;           ///< Cells (1..8192).
  std::vector<char> cells;  ///< width*height characters of kMovingAiMapChars, row-major, row 0 = top.

  /// The character of cell (x, y), x = column, y = row; asserts the cell is inside.
  char at(int x, int y) const;
};

/// One line of a Moving AI `.scen` file: a single-agent problem with its optimal length.
struct MovingAiProblem {
  int line = 0;               ///< 1-based line number in the .scen file.
  int bucket = 0;             ///< Difficulty bucket (field 1), informative only.
  std::string map_name;       ///< Field 2 as written, e.g. "maps/dao/arena2.map".
  int map_width = 0;          ///< Field 3, cells.
  int map_height = 0;         ///< Field 4, cells.
  glm::ivec2 start{0, 0};     ///< Fields 5-6, cell (x = column, y = row).
  glm::ivec2 goal{0, 0};      ///< Fields 7-8, cell (x = column, y = row).
  double optimal_length = 0;  ///< Field 9, in cells (straight step 1, diagonal sqrt(2)).
  /// Absolute tolerance for comparing a computed length with optimal_length, from the
  /// printed field 9 by movingai_length_tolerance (movingai_check.hpp).
  double tolerance = 1e-3;
};

/// Parses the text of a `.map` file. `source` names the file in errors ("file:line") and
/// gives the map its name (its stem).
Result<MovingAiMap> parse_movingai_map(std::string_view text, const std::string& source);

/// Reads and parses a `.map` file.
Result<MovingAiMap> load_movingai_map(const std::filesystem::path& path);

/// Parses the text of a `.scen` file; `source` names the file in errors ("file:line").
Result<std::vector<MovingAiProblem>> parse_movingai_scen(std::string_view text, const std::string& source);

/// Reads and parses a `.scen` file.
Result<std::vector<MovingAiProblem>> load_movingai_scen(const std::filesystem::path& path);

/// The map file of a problem: the base name of its map field (either '/' or '\\' as
/// separator), in the directory of the scen file.
std::filesystem::path scen_map_path(const std::filesystem::path& scen_file, const MovingAiProblem& problem);

/// The `.scen` files named by `inputs`: a file is taken as given, a directory
/// contributes its `*.scen` regular files (not recursive), sorted by name. The order of
/// `inputs` is kept. A missing path is an Io error.
Result<std::vector<std::filesystem::path>> collect_scen_files(
    const std::vector<std::filesystem::path>& inputs);

}  // namespace pathscope
