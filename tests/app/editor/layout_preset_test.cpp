// The layout presets: what each opens and where, at several window widths, and that the
// arrangement survives settings.json (save, load, apply).

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/editor/layout_preset.hpp"
#include "app/editor/tool.hpp"
#include "app/platform/settings.hpp"
#include "tests/test_files.hpp"

namespace fs = std::filesystem;
using namespace pathscope::app;

namespace {

// PATHSCOPE_CONFIG_DIR pointed at a fresh folder for the lifetime of this object.
struct LayoutConfigDir {
  fs::path path;
  std::string old;
  bool had = false;
  explicit LayoutConfigDir(const std::string& name) : path(pathscope::test::fresh_dir(name)) {
    if (const char* v = std::getenv("PATHSCOPE_CONFIG_DIR")) {
      old = v;
      had = true;
    }
    setenv("PATHSCOPE_CONFIG_DIR", path.string().c_str(), 1);
  }
  ~LayoutConfigDir() {
    if (had) {
      setenv("PATHSCOPE_CONFIG_DIR", old.c_str(), 1);
    } else {
      unsetenv("PATHSCOPE_CONFIG_DIR");
    }
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

void write_layout_file(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

const LayoutPreset& layout_preset_named(const char* name) {
  const LayoutPreset* p = find_layout_preset(name);
  REQUIRE(p != nullptr);
  return *p;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("layout presets: three, named, each with its shortcut and a known tool") {
    const auto presets = layout_presets();
    REQUIRE(presets.size() == 3);
    CHECK(presets[0].name == "design");
    CHECK(presets[1].name == "debug");
    CHECK(presets[2].name == "simulation");
    for (std::size_t i = 0; i < presets.size(); ++i) {
      CHECK(presets[i].shortcut == "Ctrl+" + std::to_string(i + 1));
      if (!presets[i].tool.empty()) CHECK(find_tool(presets[i].tool) != nullptr);
    }
    CHECK(find_layout_preset("nonsense") == nullptr);
    CHECK(find_layout_preset("") == nullptr);
  }

  TEST_CASE("layout presets: each opens its panels and places its columns for the window") {
    // Widths worked out by hand: fraction x window width, within 200..720 pixels.
    PanelLayout current;  // the defaults: everything but messages and comparison open
    current.left_column = 250;
    current.right_column = 390;

    const PanelLayout design = arrange(layout_preset_named("design"), 1280, current);
    CHECK(design.left_column == 256);   // 0.2 x 1280
    CHECK(design.right_column == 282);  // 0.22 x 1280 = 281.6
    CHECK(open_panel_names(design) == std::vector<std::string>{"layers", "inspector"});

    const PanelLayout debug = arrange(layout_preset_named("debug"), 1280, design);
    CHECK(debug.left_column == -256);  // folded away, opens again at its width
    CHECK(debug.right_column == 410);  // 0.32 x 1280 = 409.6
    CHECK(open_panel_names(debug) == std::vector<std::string>{"debugger", "comparison"});

    const PanelLayout sim = arrange(layout_preset_named("simulation"), 1280, debug);
    CHECK(sim.left_column == 205);  // 0.16 x 1280 = 204.8
    CHECK(sim.right_column == 384);
    CHECK(open_panel_names(sim) == std::vector<std::string>{"simulation", "messages"});
    CHECK(layout_preset_named("simulation").tool == "units");

    // A very wide window: the columns stop at 720 pixels; a narrow one: at 200.
    CHECK(arrange(layout_preset_named("debug"), 4000, current).right_column == 720);
    CHECK(arrange(layout_preset_named("design"), 800, current).left_column == 200);  // 160 below the least
    // A collapsed column that was collapsed already stays collapsed at the same width.
    CHECK(arrange(layout_preset_named("debug"), 1280, debug).left_column == -256);
  }

  TEST_CASE("layout presets: the comparison strip leaves the map most of the window's height") {
    // Worked by hand: at most 0.28 x the window's height, at least 120 pixels, never
    // more than its contents need.
    CHECK(comparison_strip_height(500, 720) == 202);     // 0.28 x 720 = 201.6
    CHECK(comparison_strip_height(500, 850) == 238);     // 0.28 x 850
    CHECK(comparison_strip_height(500, 1000) == 280);    // 0.28 x 1000
    CHECK(comparison_strip_height(150.2, 1000) == 151);  // all it needs, rounded up
    CHECK(comparison_strip_height(500, 300) == 120);     // 84 is below the least
    CHECK(comparison_strip_height(500, 100) == 100);     // never more than the window
    CHECK(comparison_strip_height(0, 720) == 0);         // nothing to show
    // The map keeps at least 72% of a 720-pixel window (half, before).
    CHECK(720 - comparison_strip_height(1e6, 720) >= 518);
  }

  TEST_CASE("layout presets: the arrangement survives a settings save and load") {
    LayoutConfigDir dir("layout_settings");
    for (const LayoutPreset& p : layout_presets()) {
      CAPTURE(p.name);
      const PanelLayout chosen = arrange(p, 1440, PanelLayout{});
      AppSettings s;
      s.layout = std::string(p.name);
      s.left_column = chosen.left_column;
      s.right_column = chosen.right_column;
      s.open_panels = open_panel_names(chosen);
      REQUIRE(save_settings(s));
      std::string message;
      const AppSettings back = load_settings(&message);
      CHECK(message.empty());
      CHECK(back == s);
      // Applied over the defaults at the next launch, as the editor does.
      PanelLayout restored;
      restored.left_column = back.left_column;
      restored.right_column = back.right_column;
      REQUIRE(back.open_panels.has_value());
      restored = with_open_panels(restored, *back.open_panels);
      CHECK(restored == chosen);
      CHECK(find_layout_preset(back.layout) == &p);
    }
    // Saved before layouts existed: no panels saved, the defaults stay.
    write_layout_file(dir.path / "settings.json", R"({"format": "pathscope-settings", "version": 1})");
    std::string message;
    CHECK_FALSE(load_settings(&message).open_panels.has_value());
    // A panel list of the wrong type: ignored, with the file and field named.
    write_layout_file(dir.path / "settings.json",
                      R"({"format": "pathscope-settings", "version": 1, "layout": {"panels": [3]}})");
    CHECK(load_settings(&message) == AppSettings{});
    CHECK(pathscope::test::contains(message, "settings.json"));
    CHECK(pathscope::test::contains(message, "layout.panels[0]"));
  }
}
