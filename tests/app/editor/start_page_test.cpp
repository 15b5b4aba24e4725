// The start page's list of shipped scenarios: names and descriptions read from each file
// of maps/, in file-name order; files that are not scenarios listed as unreadable with a
// reason naming the file.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/editor/start_page.hpp"
#include "tests/test_files.hpp"

namespace fs = std::filesystem;
using namespace pathscope::app;
using pathscope::test::contains;

namespace {

void write_start_file(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("start page: the shipped scenarios of maps/ with their names and descriptions") {
    const fs::path maps = fs::path(PATHSCOPE_SOURCE_DIR) / "maps";
    const std::vector<ShippedScenario> list = list_shipped_scenarios(maps);
    // Every .json of maps/, counted here by its own walk over the folder.
    std::size_t json_files = 0;
    for (const auto& e : fs::directory_iterator(maps)) json_files += e.path().extension() == ".json" ? 1 : 0;
    REQUIRE(list.size() == json_files);
    REQUIRE(json_files >= 10);
    for (std::size_t i = 1; i < list.size(); ++i)
      CHECK(list[i - 1].path.filename() < list[i].path.filename());
    for (const ShippedScenario& s : list) {
      CAPTURE(s.path);
      CHECK(s.readable);
      CHECK(!s.name.empty());
      CHECK(!s.description.empty());
    }
    const auto def = std::find_if(list.begin(), list.end(), [](const ShippedScenario& s) {
      return s.path.filename() == "default.json";
    });
    REQUIRE(def != list.end());
    CHECK(def->name == "Default: river crossing");
    CHECK(contains(def->description, "river of deep water"));
  }

  TEST_CASE("start page: files that are not scenarios are listed as unreadable, naming the file") {
    const fs::path dir = pathscope::test::fresh_dir("start_page_maps");
    write_start_file(dir / "a_broken.json", "{ not json");
    write_start_file(dir / "b_other.json", R"({"format": "pathscope-settings"})");
    write_start_file(dir / "c_unnamed.json", R"({"format": "pathscope-scenario"})");
    write_start_file(dir / "d_named.json",
                     R"({"format": "pathscope-scenario", "name": "Named", "description": "Says what."})");
    write_start_file(dir / "notes.txt", "not listed");
    const std::vector<ShippedScenario> list = list_shipped_scenarios(dir);
    REQUIRE(list.size() == 4);
    CHECK_FALSE(list[0].readable);
    CHECK(contains(list[0].description, "a_broken.json"));
    CHECK_FALSE(list[1].readable);
    CHECK(contains(list[1].description, "b_other.json: format"));
    CHECK(list[2].readable);
    CHECK(list[2].name == "c_unnamed");  // no name: the file's stem
    CHECK(list[3].name == "Named");
    CHECK(list[3].description == "Says what.");
    CHECK(list_shipped_scenarios(dir / "missing").empty());
    fs::remove_all(dir);
  }

  TEST_CASE("start page: the keys move the selection over the list and ask to keep it in view") {
    using pathscope::app::move_start_cursor;
    using pathscope::app::StartKey;
    using pathscope::app::StartPageCursor;
    // 20 scenarios, 6 to a page.
    StartPageCursor c;
    c = move_start_cursor(c, StartKey::Down, 20, 6);  // none selected: the first
    CHECK(c.selected == 0u);
    CHECK(c.scroll_to);
    c.scroll_to = false;                            // the page scrolled to it
    c = move_start_cursor(c, StartKey::Up, 20, 6);  // stays at the top
    CHECK(c.selected == 0u);
    CHECK(c.scroll_to);
    c = move_start_cursor(c, StartKey::PageDown, 20, 6);
    CHECK(c.selected == 6u);
    c = move_start_cursor(c, StartKey::Down, 20, 6);
    CHECK(c.selected == 7u);
    c = move_start_cursor(c, StartKey::PageDown, 20, 6);
    c = move_start_cursor(c, StartKey::PageDown, 20, 6);
    CHECK(c.selected == 19u);  // 13, then the last
    c = move_start_cursor(c, StartKey::Down, 20, 6);
    CHECK(c.selected == 19u);
    c = move_start_cursor(c, StartKey::PageUp, 20, 6);
    CHECK(c.selected == 13u);
    c = move_start_cursor(c, StartKey::Home, 20, 6);
    CHECK(c.selected == 0u);
    c = move_start_cursor(StartPageCursor{}, StartKey::End, 20, 6);
    CHECK(c.selected == 19u);
    // A selection beyond a list that shrank: moved from the last entry.
    c = move_start_cursor(StartPageCursor{std::size_t(30), false}, StartKey::Up, 20, 6);
    CHECK(c.selected == 18u);
    // No entries: nothing selected, nothing to scroll to.
    c = move_start_cursor(StartPageCursor{}, StartKey::Down, 0, 6);
    CHECK_FALSE(c.selected.has_value());
    CHECK_FALSE(c.scroll_to);
  }
}
