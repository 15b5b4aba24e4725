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

TEST_CASE("window placement: the remembered size and position, made to fit") {
  AppSettings s;
  s.window_width = 1180;
  s.window_height = 760;
  s.window_x = 50;
  s.window_y = 40;
  CHECK(place_window(s, {0, 0, 1600, 1000}) == ScreenRect{50, 40, 1180, 760});
  // Remembered on a bigger display: shrunk to fit this one, and moved onto it.
  s.window_width = 2500;
  s.window_height = 1400;
  s.window_x = 1700;
  CHECK(place_window(s, {0, 0, 1600, 1000}) == ScreenRect{0, 0, 1600, 1000});
  // Off an edge: moved in just as far as it takes.
  s.window_width = 800;
  s.window_height = 600;
  s.window_x = 50;
  s.window_y = -300;  // title bar above the display
  CHECK(place_window(s, {0, 0, 1600, 1000}) == ScreenRect{50, 0, 800, 600});
  s.window_y = 900;  // bottom below it
  CHECK(place_window(s, {0, 24, 1600, 976}) == ScreenRect{50, 400, 800, 600});
  s.window_x = -2000;
  CHECK(place_window(s, {0, 24, 1600, 976}).x == 0);
}

// A window manager that draws a frame round the window and, as ICCCM asks of NorthWest
// gravity, puts the frame's outer corner where the window was asked to be.
ScreenRect client_under_frame(ScreenRect asked, FrameExtents frame) {
  return {asked.x + frame.left, asked.y + frame.top, asked.w, asked.h};
}

TEST_CASE("window placement: under a window manager's frame the window reopens exactly where it was") {
  const FrameExtents frame{1, 20, 1, 5};
  const ScreenRect usable{0, 0, 1280, 1000};
  AppSettings s;
  ScreenRect client = client_under_frame(place_window(s, usable), frame);
  const ScreenRect first = client;
  for (int launch = 2; launch <= 5; ++launch) {
    remember_window(s, client, frame);
    client = client_under_frame(place_window(s, usable), frame);
    CHECK(client == first);  // no creep by the title bar's height
  }
  // Closed with the frame's bottom edge off the display: reopened whole on it.
  remember_window(s, {300, 600, 900, 500}, frame);
  const ScreenRect asked = place_window(s, usable);
  client = client_under_frame(asked, frame);
  CHECK(asked.y >= usable.y);
  CHECK(client.y + client.h + frame.bottom == usable.y + usable.h);
  CHECK(client.x == 300);
  // Larger than the display with its frame: shrunk so that frame and window fit.
  remember_window(s, {0, 20, 1280, 1000}, frame);
  CHECK(place_window(s, usable) == ScreenRect{0, 0, 1278, 975});
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
