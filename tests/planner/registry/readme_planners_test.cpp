// The README's planner table lists the registry as it is: one row per registered planner,
// naming its family folder (linked) and whether it is exact, and no row for a planner the
// registry does not have. A planner added, renamed or made inexact without the README
// following fails here.

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "planner/core/planner_registry.hpp"

using namespace pathscope;

namespace {

// The cells of a Markdown table row ("| a | b |" -> {"a", "b"}), trimmed.
std::vector<std::string> readme_row_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t pos = line.find('|');
  while (pos != std::string::npos) {
    const std::size_t next = line.find('|', pos + 1);
    if (next == std::string::npos) break;
    std::string cell = line.substr(pos + 1, next - pos - 1);
    const std::size_t a = cell.find_first_not_of(' ');
    const std::size_t b = cell.find_last_not_of(' ');
    cells.push_back(a == std::string::npos ? std::string() : cell.substr(a, b - a + 1));
    pos = next;
  }
  return cells;
}

}  // namespace

TEST_CASE("README: the planner table has a row for every registered planner, and only those") {
  std::ifstream in(std::string(PATHSCOPE_SOURCE_DIR) + "/README.md");
  REQUIRE(in);
  // The table under the header "| name | family | exact | what it does |", to the first
  // line that is not a row.
  std::map<std::string, std::vector<std::string>> rows;  // planner name -> its row's cells
  std::string line;
  bool in_table = false;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = readme_row_cells(line);
    if (!in_table) {
      in_table = cells.size() == 4 && cells[0] == "name" && cells[1] == "family" && cells[2] == "exact";
      continue;
    }
    if (line.empty() || line[0] != '|') break;
    if (cells.size() != 4 || cells[0].find("---") != std::string::npos) continue;
    REQUIRE_MESSAGE(cells[0].size() > 2, line);
    rows[cells[0].substr(1, cells[0].size() - 2)] = cells;  // `name`
  }
  REQUIRE_MESSAGE(in_table, "README.md has no planner table");

  std::size_t registered = 0;
  for (const PlannerInfo& info : planner_registry()) {
    ++registered;
    CAPTURE(info.name);
    const auto row = rows.find(info.name);
    REQUIRE_MESSAGE(row != rows.end(), "README.md's planner table has no row for " << info.name);
    const std::vector<std::string>& cells = row->second;
    CHECK(cells[1] == "[" + info.family + "](planner/" + info.family + "/README.md)");
    CHECK(cells[2] == (info.exact ? "yes" : "no"));
    CHECK(!cells[3].empty());
  }
  CHECK(rows.size() == registered);  // no row names a planner the registry lacks
}
