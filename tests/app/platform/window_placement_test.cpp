// The window opens at a size that fits the display: the remembered one when it still
// fits, else most of the display, centred; the side columns' widths are remembered.

#include "app/platform/window_placement.hpp"
#include "app/platform/settings.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

using namespace pathscope::app;

TEST_CASE("window placement: with nothing remembered, most of the display, centred") {
  const AppSettings none;
  const ScreenRect r = place_window(none, {0, 0, 1600, 1000});
  CHECK(r == ScreenRect{120, 75, 1360, 850});
  // A small display: the window still fits it.
  const ScreenRect small = place_window(none, {0, 24, 1024, 600});
  CHECK(small.w <= 1024);
  CHECK(small.h <= 600);
  CHECK(small.y >= 24);
  // A very large one: capped.
  const ScreenRect big = place_window(none, {0, 0, 5120, 2880});
  CHECK(big.w == 1920);
  CHECK(big.h == 1200);
}

TEST_CASE("window placement: the remembered size and position, when they fit") {
  AppSettings s;
  s.window_width = 1180;
  s.window_height = 760;
  s.window_x = 50;
  s.window_y = 40;
  CHECK(place_window(s, {0, 0, 1600, 1000}) == ScreenRect{50, 40, 1180, 760});
  // Remembered on a bigger display: shrunk to fit this one, and centred when its old
  // position would put the title bar off the screen.
  s.window_width = 2500;
  s.window_height = 1400;
  s.window_x = 1700;
  const ScreenRect r = place_window(s, {0, 0, 1600, 1000});
  CHECK(r == ScreenRect{0, 0, 1600, 1000});
  s.window_width = 800;
  s.window_height = 600;
  s.window_y = -300;  // title bar above the display
  CHECK(place_window(s, {0, 0, 1600, 1000}) == ScreenRect{400, 200, 800, 600});
}

TEST_CASE("settings: the side columns' widths and collapsed state round-trip") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "pathscope_columns_test";
  std::filesystem::remove_all(dir);
  ::setenv("PATHSCOPE_CONFIG_DIR", dir.c_str(), 1);
  AppSettings s;
  s.left_column = 300;
  s.right_column = -420;  // collapsed, 420 wide when opened
  REQUIRE(save_settings(s));
  std::string message;
  const AppSettings back = load_settings(&message);
  CHECK(message.empty());
  CHECK(back.left_column == 300);
  CHECK(back.right_column == -420);
  ::unsetenv("PATHSCOPE_CONFIG_DIR");
  std::filesystem::remove_all(dir);
}
