// File menu actions (open, save, import, recent files, the unsaved-changes flow),
// settings persistence and PNG export. No window: only the non-ImGui parts are driven.

#include <doctest/doctest.h>

#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "app/editor/document.hpp"
#include "app/editor/editor_state.hpp"
#include "app/editor/file_actions.hpp"
#include "app/editor/file_browser.hpp"
#include "app/platform/png_export.hpp"
#include "app/platform/settings.hpp"
#include "app/sim/sim_player.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/stuck_detector.hpp"
#include "planner/world/planning_world.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"
#include "render/map/scene_painter.hpp"
#include "tests/test_files.hpp"

namespace fs = std::filesystem;
using namespace pathscope;
using namespace pathscope::app;

namespace {

fs::path source_path(const std::string& relative) { return fs::path(PATHSCOPE_SOURCE_DIR) / relative; }

// A fresh, empty folder under the system temp folder, removed at the end of the test.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) {
    path = fs::temp_directory_path() / ("pathscope_files_" + name);
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Sets an environment variable for the lifetime of this object.
struct ScopedEnv {
  std::string name;
  std::string old;
  bool had = false;
  ScopedEnv(std::string n, const std::string& value) : name(std::move(n)) {
    if (const char* v = std::getenv(name.c_str())) {
      had = true;
      old = v;
    }
    setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had) {
      setenv(name.c_str(), old.c_str(), 1);
    } else {
      unsetenv(name.c_str());
    }
  }
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

using test::contains;

// The newest message has `severity` and contains `part`.
bool last_message(const EditorState& state, Severity severity, const std::string& part) {
  return !state.messages.empty() && state.messages.back().severity == severity &&
         contains(state.messages.back().text, part);
}

std::ptrdiff_t count_files(const fs::path& dir) {
  return std::distance(fs::directory_iterator(dir), fs::directory_iterator());
}

// An editor state with maps/default.json open and unmodified.
EditorState state_with_default(FileActions& files) {
  EditorState state;
  REQUIRE(files.load_path(state, source_path("maps/default.json")));
  REQUIRE(state.doc);
  REQUIRE_FALSE(state.doc->modified());
  return state;
}

void rename_scenario(Document& doc, const std::string& name) {
  REQUIRE(doc.apply("Rename", [&](Scenario& s) { s.name = name; }));
}

}  // namespace

TEST_SUITE("files") {
  TEST_CASE("save game as: writes the running simulation's saved game atomically, the document untouched") {
    TempDir dir("save_game");
    FileActions files;
    EditorState state;
    SimPlayer player;
    files.set_game_source(
        [&] { return player.active() ? std::optional<std::uint64_t>(player.shown_step()) : std::nullopt; },
        [&] { return player.saved_game_shown(); });
    REQUIRE(files.load_path(state, source_path("maps/sim_bridge.json")));
    // No simulation yet: nothing to save, and the message says so.
    files.request_save_game(state);
    CHECK_FALSE(files.take_dialog_request());
    CHECK(last_message(state, Severity::Error, "no simulation is running"));
    CHECK_FALSE(files.save_game_as(state, dir.path / "none.json"));
    CHECK_FALSE(fs::exists(dir.path / "none.json"));
    for (int i = 0; i < 90; ++i) REQUIRE(player.step(state));
    files.request_save_game(state);
    const std::optional<FileDialogRequest> asked = files.take_dialog_request();
    REQUIRE(asked);
    CHECK(asked->dialog == FileDialog::Browser);
    CHECK(asked->browse_for == BrowseFor::SaveGame);
    const fs::path out = dir.path / "bridge_game.json";
    REQUIRE(files.save_game_as(state, out));
    CHECK(last_message(state, Severity::Info, "saved game " + out.string() + " (step 90, 3.00 s)"));
    CHECK(count_files(dir.path) == 1);  // no temporary file left behind
    // The document keeps its file and is not marked saved elsewhere.
    CHECK(state.doc->path().filename() == "sim_bridge.json");
    CHECK_FALSE(state.doc->modified());
    // Loaded and restored, it is the window's simulation.
    const auto loaded = load_scenario(out);
    REQUIRE(loaded.ok());
    REQUIRE_FALSE(loaded->sim_state.empty());
    Scenario fresh = *loaded;
    fresh.sim_state.clear();
    sim::Simulation restored(fresh);
    REQUIRE(restored.restore_state(loaded->sim_state).ok());
    CHECK(restored.step_count() == 90);
    CHECK(restored.state_hash() == player.simulation()->state_hash());
    // With the stuck detector's tracks: the queued units are flagged when the window's
    // run flags them (at 10 s), not 10 s after loading.
    CHECK(loaded->sim_state.find("stuck_detector") != std::string::npos);
    sim::Simulation again(fresh);
    sim::StuckDetector detector(sim::stuck_params(fresh.sim));
    REQUIRE(sim::restore_saved_game(again, detector, loaded->sim_state).ok());
    for (int i = 0; i < 240 && detector.events().empty(); ++i) {
      again.step();
      detector.observe(again);
    }
    REQUIRE_FALSE(detector.events().empty());
    CHECK(detector.events().front().time == doctest::Approx(10.0));
    // A folder that is not there: an error naming the file, nothing written.
    CHECK_FALSE(files.save_game_as(state, dir.path / "no_such_folder" / "g.json"));
    CHECK(last_message(state, Severity::Error, "cannot save the game"));
    CHECK(last_message(state, Severity::Error, "g.json"));
    // Scrubbed back to step 40 of 90: the game saved is step 40, the one on screen, and
    // the message says so.
    REQUIRE(player.scrub(40));
    CHECK(files.game_step() == std::optional<std::uint64_t>(40));
    const fs::path earlier = dir.path / "bridge_step40.json";
    REQUIRE(files.save_game_as(state, earlier));
    CHECK(last_message(state, Severity::Info, "saved game " + earlier.string() + " (step 40, 1.33 s)"));
    const auto at40 = load_scenario(earlier);
    REQUIRE(at40.ok());
    Scenario bare = *at40;
    bare.sim_state.clear();
    sim::Simulation then(bare);
    REQUIRE(then.restore_state(at40->sim_state).ok());
    CHECK(then.step_count() == 40);
    CHECK(then.state_hash() == player.recording()->hash(40));
    CHECK(player.simulation()->step_count() == 90);  // the run itself is where it was
  }

  TEST_CASE("open_path of a broken file reports file and field and keeps the document") {
    FileActions files;
    EditorState state = state_with_default(files);
    const Document* before = state.doc.get();
    const Scenario scenario = state.doc->scenario();
    const std::uint64_t serial = state.doc_serial;

    files.open_path(state, source_path("tests/data/bad_self_intersecting.json").string());
    REQUIRE_FALSE(state.messages.empty());
    CHECK(last_message(state, Severity::Error, "bad_self_intersecting.json"));
    CHECK(last_message(state, Severity::Error, "features[0]"));
    CHECK(state.doc.get() == before);
    CHECK(state.doc->scenario() == scenario);
    CHECK(state.doc_serial == serial);

    files.open_path(state, source_path("tests/data/bad_syntax.json").string());
    CHECK(last_message(state, Severity::Error, "bad_syntax.json:"));
    files.open_path(state, source_path("tests/data/bad_char.map").string());
    CHECK(last_message(state, Severity::Error, "bad_char.map:"));
    files.open_path(state, source_path("tests/data/no_such_file.json").string());
    CHECK(last_message(state, Severity::Error, "no_such_file.json"));
    files.open_path(state, source_path("README.md").string());
    CHECK(last_message(state, Severity::Error, "unknown file type"));
    CHECK(state.doc.get() == before);
    CHECK(state.doc_serial == serial);
    // Failed opens do not enter the recent files.
    REQUIRE(files.recent().size() == 1);
    CHECK(contains(files.recent()[0], "default.json"));
  }

  TEST_CASE("a Moving AI .map opens as an untitled document") {
    FileActions files;
    EditorState state;
    files.open_path(state, source_path("tests/data/ok.map").string());
    REQUIRE(state.doc);
    CHECK(state.doc->path().empty());
    CHECK(state.doc->scenario().world.width == 4);
    CHECK(last_message(state, Severity::Info, "opened "));
    // The scenario is in no file yet: unsaved, as an import from the File menu is.
    CHECK(state.doc->modified());
    CHECK_FALSE(files.request_quit(state));
    files.answer_unsaved(state, FileActions::UnsavedAnswer::Cancel);
    CHECK_FALSE(files.quit_confirmed());
    // Saving an untitled document asks for a file instead of writing the .map.
    CHECK_FALSE(files.save(state));
    CHECK(files.dialog_open());
  }

  TEST_CASE("a Moving AI map imported through the File menu is unsaved: quitting asks") {
    TempDir dir("import_unsaved");
    FileActions files;
    EditorState state = state_with_default(files);
    files.request_import(state);  // File > Import Moving AI map...
    std::optional<FileDialogRequest> asked = files.take_dialog_request();
    REQUIRE(asked);
    CHECK(asked->dialog == FileDialog::Import);
    // The dialog's Import button, with no .scen chosen.
    REQUIRE(files.import_movingai(state, source_path("tests/data/ok.map"), {}, {}));
    CHECK(last_message(state, Severity::Info, "imported "));
    CHECK(state.doc->path().empty());
    CHECK(state.doc->modified());  // The window title shows "untitled *".

    // Ctrl+Q asks instead of quitting; Cancel keeps the import.
    const Document* imported = state.doc.get();
    files.quit(state);
    CHECK_FALSE(files.quit_confirmed());
    CHECK(files.asking_unsaved());
    asked = files.take_dialog_request();
    REQUIRE(asked);
    CHECK(asked->dialog == FileDialog::Unsaved);
    CHECK(asked->document_name == "untitled");
    files.answer_unsaved(state, FileActions::UnsavedAnswer::Cancel);
    CHECK_FALSE(files.quit_confirmed());
    CHECK(state.doc.get() == imported);
    CHECK_FALSE(files.request_quit(state));
    files.answer_unsaved(state, FileActions::UnsavedAnswer::Cancel);

    // Saved as a scenario, nothing is left to lose.
    REQUIRE(files.save_as(state, dir.path / "imported.json"));
    CHECK(last_message(state, Severity::Info, "saved "));
    CHECK_FALSE(state.doc->modified());
    CHECK(files.request_quit(state));

    // With problems of a .scen as queries, too.
    const std::vector<std::size_t> chosen = {0, 1};
    const fs::path map = source_path("tests/data/ok.map");
    REQUIRE(files.import_movingai(state, map, source_path("tests/data/ok.scen"), chosen));
    CHECK(state.doc->scenario().queries.size() == 2);
    CHECK(state.doc->modified());
    CHECK_FALSE(files.request_quit(state));
  }

  TEST_CASE("a failed open pins its error, later successes leave it pinned until dismissed") {
    FileActions files;
    EditorState state = state_with_default(files);
    CHECK(state.messages.pinned_error() == nullptr);
    files.open_path(state, source_path("tests/data/bad_syntax.json").string());
    const Message* pinned = state.messages.pinned_error();
    REQUIRE(pinned);
    CHECK(pinned->severity == Severity::Error);
    CHECK(contains(pinned->text, "bad_syntax.json:"));
    REQUIRE(files.load_path(state, source_path("maps/default.json")));
    CHECK(last_message(state, Severity::Info, "opened "));
    REQUIRE(state.messages.pinned_error());
    CHECK(contains(state.messages.pinned_error()->text, "bad_syntax.json:"));
    state.messages.dismiss_error();
    CHECK(state.messages.pinned_error() == nullptr);
    CHECK(state.messages.size() == 3);  // Dismissing keeps the list.
  }

  TEST_CASE("save then reopen round-trips") {
    TempDir dir("save");
    FileActions files;
    EditorState state = state_with_default(files);
    rename_scenario(*state.doc, "renamed for the round trip");
    CHECK(state.doc->modified());

    const fs::path out = dir.path / "copy.json";
    REQUIRE(files.save_as(state, out));
    CHECK_FALSE(state.doc->modified());
    CHECK(state.doc->path() == out);
    CHECK(read_text(out) == scenario_to_json(state.doc->scenario()));
    CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) ==
          1);  // No temporary left.

    const Scenario saved = state.doc->scenario();
    rename_scenario(*state.doc, "changed again");
    REQUIRE(files.save(state));  // To the document's own file now.
    REQUIRE(files.load_path(state, out));
    CHECK(state.doc->scenario().name == "changed again");
    CHECK_FALSE(state.doc->modified());
    CHECK(files.recent().front() == fs::absolute(out).lexically_normal().string());

    // A failed save reports the path and leaves the document modified.
    rename_scenario(*state.doc, "unsaved");
    CHECK_FALSE(files.save_as(state, dir.path / "no_such_folder" / "x.json"));
    CHECK(last_message(state, Severity::Error, "no_such_folder"));
    CHECK(state.doc->modified());
    CHECK(state.doc->path() == out);
    (void)saved;
  }

  TEST_CASE("unsaved changes are asked about before opening and quitting") {
    TempDir dir("unsaved");
    FileActions files;
    EditorState state = state_with_default(files);
    const fs::path own = dir.path / "own.json";
    REQUIRE(files.save_as(state, own));
    const fs::path other = dir.path / "other.json";
    REQUIRE(save_scenario(make_empty_scenario(32, 32, 1), other));

    CHECK(files.request_quit(state));  // Nothing to lose.
    rename_scenario(*state.doc, "edited");
    const Document* edited = state.doc.get();

    files.open_path(state, other.string());
    CHECK(files.asking_unsaved());
    CHECK(state.doc.get() == edited);
    files.answer_unsaved(state, FileActions::UnsavedAnswer::Cancel);
    CHECK_FALSE(files.asking_unsaved());
    CHECK(state.doc.get() == edited);
    CHECK(state.doc->modified());

    files.open_path(state, other.string());
    files.answer_unsaved(state, FileActions::UnsavedAnswer::Save);
    CHECK(load_scenario(own)->name == "edited");  // Saved to its own file first...
    CHECK(state.doc->path() == other);            // ...then the other one opened.

    rename_scenario(*state.doc, "edited too");
    CHECK_FALSE(files.request_quit(state));
    CHECK(files.asking_unsaved());
    CHECK_FALSE(files.quit_confirmed());
    files.answer_unsaved(state, FileActions::UnsavedAnswer::Discard);
    CHECK(files.quit_confirmed());
    CHECK(files.request_quit(state));
    CHECK(load_scenario(other)->name != "edited too");
  }

  TEST_CASE("recent files: at most 10, most recent first, no duplicates, missing ones dropped") {
    TempDir dir("recent");
    FileActions files;
    EditorState state;
    std::vector<fs::path> paths;
    for (int i = 0; i < 12; ++i) {
      paths.push_back(dir.path / ("s" + std::to_string(i) + ".json"));
      REQUIRE(save_scenario(make_empty_scenario(16 + i, 16, 1), paths.back()));
    }
    for (const fs::path& p : paths) REQUIRE(files.load_path(state, p));
    auto key = [](const fs::path& p) { return fs::absolute(p).lexically_normal().string(); };
    REQUIRE(files.recent().size() == kMaxRecentFiles);
    CHECK(files.recent().front() == key(paths[11]));
    CHECK(files.recent().back() == key(paths[2]));

    REQUIRE(files.load_path(state, paths[5]));  // Moves to the front, once.
    CHECK(files.recent().front() == key(paths[5]));
    CHECK(files.recent().size() == kMaxRecentFiles);
    CHECK(std::count(files.recent().begin(), files.recent().end(), key(paths[5])) == 1);

    fs::remove(paths[9]);
    const std::uint64_t serial = state.doc_serial;
    files.open_recent(state, key(paths[9]));
    CHECK(last_message(state, Severity::Error, "no longer exists"));
    CHECK(state.doc_serial == serial);
    CHECK(files.recent().size() == kMaxRecentFiles - 1);
    CHECK(std::find(files.recent().begin(), files.recent().end(), key(paths[9])) == files.recent().end());

    files.open_recent(state, key(paths[3]));
    CHECK(state.doc->path() == key(paths[3]));
    CHECK(files.recent().front() == key(paths[3]));

    std::vector<std::string> many(15, "x");
    for (std::size_t i = 0; i < many.size(); ++i) many[i] += std::to_string(i);
    files.set_recent(many);
    CHECK(files.recent().size() == kMaxRecentFiles);
  }

  TEST_CASE("settings: load/save round trip, folder override, malformed files ignored") {
    TempDir dir("settings");
    const fs::path config = dir.path / "config";
    ScopedEnv env("PATHSCOPE_CONFIG_DIR", config.string());
    CHECK(settings_dir() == config);

    std::string message = "stale";
    CHECK(load_settings(&message) == AppSettings{});  // No file yet: defaults, quietly.
    CHECK(message.empty());

    AppSettings s;
    s.recent_files = {"/a/b.json", "/c/d.json"};
    s.window_width = 1600;
    s.window_height = 900;
    s.window_x = 40;
    s.window_y = -10;
    s.frame_left = 1;
    s.frame_top = 20;
    s.frame_right = 1;
    s.frame_bottom = 5;
    s.window_maximized = true;
    s.last_directory = "/some/folder";
    REQUIRE(save_settings(s));
    CHECK(fs::is_regular_file(config / "settings.json"));
    CHECK(load_settings(&message) == s);
    CHECK(message.empty());
    CHECK(imgui_ini_path() == (config / "imgui.ini").string());

    // Leftover temporaries: none.
    int files_in_config = 0;
    for (const auto& e : fs::directory_iterator(config)) files_in_config += e.is_regular_file() ? 1 : 0;
    CHECK(files_in_config == 1);

    write_text(config / "settings.json", "{ this is not json");
    CHECK(load_settings(&message) == AppSettings{});
    CHECK(contains(message, "settings.json"));

    write_text(config / "settings.json",
               R"({"format": "pathscope-settings", "version": 1, "window": {"width": "wide"}})");
    CHECK(load_settings(&message) == AppSettings{});
    CHECK(contains(message, "window.width"));

    write_text(config / "settings.json",
               R"({"format": "pathscope-settings", "version": 1, "recent_files": [1]})");
    CHECK(load_settings(&message) == AppSettings{});
    CHECK(contains(message, "recent_files[0]"));

    write_text(config / "settings.json", "[]");
    CHECK(load_settings(&message) == AppSettings{});
    CHECK_FALSE(message.empty());

    // Out-of-range sizes are clamped rather than losing the file.
    write_text(config / "settings.json",
               R"({"format": "pathscope-settings", "version": 1, "window": {"width": 5, "height": 99999},
                   "recent_files": ["/x.json"]})");
    const AppSettings clamped = load_settings(&message);
    CHECK(message.empty());
    CHECK(clamped.window_width == 200);
    CHECK(clamped.window_height == 16384);
    CHECK(clamped.window_x == 0);
    CHECK(clamped.recent_files == std::vector<std::string>{"/x.json"});

    // A FileActions that persists writes its recent list as it changes.
    {
      FileActions files(AppSettings{}, true);
      EditorState state;
      REQUIRE(files.load_path(state, source_path("maps/default.json")));
    }
    const AppSettings persisted = load_settings(&message);
    REQUIRE(persisted.recent_files.size() == 1);
    CHECK(contains(persisted.recent_files[0], "default.json"));
    CHECK(fs::path(persisted.last_directory).filename() == "maps");
  }

  TEST_CASE("settings: an unwritable folder is skipped silently") {
    TempDir dir("settings_ro");
    const fs::path blocker = dir.path / "file";
    write_text(blocker, "not a folder");
    ScopedEnv env("PATHSCOPE_CONFIG_DIR", (blocker / "pathscope").string());
    CHECK_FALSE(save_settings(AppSettings{}));
    CHECK(imgui_ini_path().empty());
    std::string message;
    CHECK(load_settings(&message) == AppSettings{});
  }

  TEST_CASE("settings folder follows XDG_CONFIG_HOME, then HOME") {
    ScopedEnv no_override("PATHSCOPE_CONFIG_DIR", "");
    {
      ScopedEnv xdg("XDG_CONFIG_HOME", "/tmp/xdg_config");
      CHECK(settings_dir() == fs::path("/tmp/xdg_config/pathscope"));
    }
    ScopedEnv relative("XDG_CONFIG_HOME", "relative/dir");  // Invalid per XDG: ignored.
    ScopedEnv home("HOME", "/home/someone");
    CHECK(settings_dir() == fs::path("/home/someone/.config/pathscope"));
  }

  TEST_CASE("actions ask for dialogs, the dialogs take each request once") {
    FileActions files;
    EditorState state = state_with_default(files);
    CHECK_FALSE(files.take_dialog_request());

    files.request_new(state);
    std::optional<FileDialogRequest> asked = files.take_dialog_request();
    REQUIRE(asked);
    CHECK(asked->dialog == FileDialog::New);
    CHECK_FALSE(files.take_dialog_request());
    CHECK_FALSE(files.dialog_open());

    files.request_save_as(state);
    CHECK(files.dialog_open());
    asked = files.take_dialog_request();
    REQUIRE(asked);
    CHECK(asked->dialog == FileDialog::Browser);
    CHECK(asked->browse_for == BrowseFor::SaveAs);

    files.open_path(state, source_path("tests/data/ok.scen").string());
    asked = files.take_dialog_request();
    REQUIRE(asked);
    CHECK(asked->dialog == FileDialog::Import);
    CHECK(asked->scen_path == source_path("tests/data/ok.scen").string());

    // With unsaved changes, the prompt comes first and names the document.
    rename_scenario(*state.doc, "edited");
    files.request_open_dialog(state);
    asked = files.take_dialog_request();
    REQUIRE(asked);
    CHECK(asked->dialog == FileDialog::Unsaved);
    CHECK(asked->document_name == state.doc->display_name());
    files.answer_unsaved(state, FileActions::UnsavedAnswer::Discard);
    asked = files.take_dialog_request();
    REQUIRE(asked);
    CHECK(asked->dialog == FileDialog::Browser);
    CHECK(asked->browse_for == BrowseFor::Open);
  }

  TEST_CASE("Save As from the unsaved-changes prompt continues only once a file is written") {
    TempDir dir("save_as_chosen");
    FileActions files;
    EditorState state;
    files.open_path(state, source_path("tests/data/ok.map").string());  // Untitled: Save needs a file.
    REQUIRE(state.doc);
    rename_scenario(*state.doc, "imported");
    const fs::path other = dir.path / "other.json";
    REQUIRE(save_scenario(make_empty_scenario(32, 32, 1), other));

    files.open_path(state, other.string());
    files.answer_unsaved(state, FileActions::UnsavedAnswer::Save);
    std::optional<FileDialogRequest> asked = files.take_dialog_request();
    REQUIRE(asked);
    CHECK(asked->browse_for == BrowseFor::SaveAs);
    files.save_as_chosen(state, std::nullopt);  // Cancelled: nothing written, nothing opened.
    CHECK(state.doc->scenario().name == "imported");
    CHECK(count_files(dir.path) == 1);

    files.open_path(state, other.string());
    files.answer_unsaved(state, FileActions::UnsavedAnswer::Save);
    const fs::path mine = dir.path / "mine.json";
    files.save_as_chosen(state, mine);
    CHECK(load_scenario(mine)->name == "imported");
    CHECK(state.doc->path() == other);  // Then the waiting Open went ahead.

    // A file chosen in the Open browser: .json opens, .scen asks for the import dialog.
    files.open_chosen(state, mine.string());
    CHECK(state.doc->path() == mine);
    files.open_chosen(state, source_path("tests/data/ok.scen").string());
    asked = files.take_dialog_request();
    REQUIRE(asked);
    CHECK(asked->dialog == FileDialog::Import);
  }

  TEST_CASE("create_new opens an untitled document, bad input names the field and changes nothing") {
    FileActions files;
    EditorState state = state_with_default(files);
    const Document* before = state.doc.get();
    NewScenarioParams p;
    p.cell_size = -1;
    Status bad = files.create_new(state, p);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().where == "world.cell_size");
    CHECK(state.doc.get() == before);

    p.width = 40;
    p.height = 30;
    p.cell_size = 2;
    REQUIRE(files.create_new(state, p));
    CHECK(state.doc.get() != before);
    CHECK(state.doc->path().empty());
    CHECK(state.doc->scenario().world.width == 40);
    CHECK(last_message(state, Severity::Info, "new scenario: 40 x 30 m"));
  }

  TEST_CASE("export_image: .png appended, reported, folder remembered, errors for the dialog") {
    TempDir dir("export_image");
    FileActions files;
    EditorState state = state_with_default(files);
    std::vector<fs::path> written;
    const ExportRequestFn export_request = [&](int w, int h, const fs::path& out) -> Status {
      if (w != 64 || h != 48) return make_error(ErrorCode::Value, out.string(), "wrong size");
      written.push_back(out);
      return Ok{};
    };
    Result<fs::path> out = files.export_image(state, export_request, 64, 48, dir.path / "view");
    REQUIRE(out);
    CHECK(*out == dir.path / "view.png");
    CHECK(written == std::vector<fs::path>{dir.path / "view.png"});
    CHECK(last_message(state, Severity::Info, "exported"));
    CHECK(files.settings().last_directory == fs::absolute(dir.path).string());

    CHECK(files.export_image(state, export_request, 64, 48, "").error().to_string() == "choose a file");
    CHECK(files.export_image(state, {}, 64, 48, dir.path / "a.png").error().to_string() ==
          "exporting is not available here");
    Result<fs::path> failed = files.export_image(state, export_request, 10, 10, dir.path / "b.png");
    REQUIRE_FALSE(failed);
    CHECK(contains(failed.error().to_string(), "wrong size"));
    CHECK(last_message(state, Severity::Error, "cannot export"));
    CHECK(written.size() == 1);
  }

  TEST_CASE("folder listing: folders first, then files with the extensions") {
    TempDir dir("listing");
    fs::create_directories(dir.path / "zfolder");
    fs::create_directories(dir.path / ".hidden");
    for (const char* name : {"b.json", "A.JSON", "c.map", "d.txt", ".e.json"})
      write_text(dir.path / name, "{}");
    const std::vector<std::string> exts = {".json"};
    Result<std::vector<DirEntry>> listed = list_directory(dir.path, exts);
    REQUIRE(listed);
    const std::vector<DirEntry> expected = {{"zfolder", true}, {"A.JSON", false}, {"b.json", false}};
    CHECK(*listed == expected);
    CHECK_FALSE(list_directory(dir.path / "missing", exts));
  }

  TEST_CASE("Moving AI import: chosen problems become queries, errors name file and line") {
    FileActions files;
    EditorState state = state_with_default(files);
    const fs::path map = source_path("tests/data/ok.map");
    const std::vector<std::size_t> chosen = {1};
    REQUIRE(files.import_movingai(state, map, source_path("tests/data/ok.scen"), chosen));
    REQUIRE(state.doc->scenario().queries.size() == 1);
    CHECK(state.doc->scenario().queries[0].name == "scen line 3");
    CHECK(state.doc->path().empty());

    const Document* before = state.doc.get();
    CHECK_FALSE(files.import_movingai(state, map, source_path("tests/data/bad_field.scen"), chosen));
    CHECK(last_message(state, Severity::Error, "bad_field.scen:"));
    const std::vector<std::size_t> outside = {0};
    CHECK_FALSE(files.import_movingai(state, source_path("tests/data/bad_char.map"),
                                      source_path("tests/data/ok.scen"), outside));
    CHECK_FALSE(files.import_movingai(state, source_path("tests/data/bad_char.map"), {}, {}));
    CHECK(last_message(state, Severity::Error, "bad_char.map:"));
    CHECK(state.doc.get() == before);

    REQUIRE(files.import_movingai(state, map, {}, {}));
    CHECK(state.doc->scenario().queries.empty());
  }

  TEST_CASE("every dialog opens, draws and closes with Escape (offscreen ImGui frames)") {
    TempDir dir("dialogs");
    ScopedEnv driver("SDL_VIDEODRIVER", "dummy");
    Result<std::unique_ptr<OffscreenCanvas>> canvas = OffscreenCanvas::create(1280, 800);
    REQUIRE(canvas);
    FileActions files;
    EditorState state = state_with_default(files);
    int exports = 0;
    const ExportRequestFn export_request = [&](int, int, const fs::path&) {
      ++exports;
      return Status(Ok{});
    };
    bool escape = false;
    const render::DrawList nothing;
    const render::Camera camera;
    // One frame: the menu bar with the File menu, then the dialogs, as the editor does.
    auto frame = [&] {
      (*canvas)->draw_frame(nothing, camera, [&] {
        ImGuiIO& io = ImGui::GetIO();
        io.KeyMap[ImGuiKey_Escape] = SDL_SCANCODE_ESCAPE;
        if (ImGui::BeginMainMenuBar()) {
          if (ImGui::BeginMenu("File")) {
            files.menu_items(state);
            ImGui::EndMenu();
          }
          ImGui::EndMainMenuBar();
        }
        files.shortcuts(state);
        files.dialogs(state, export_request);
        // Escape is held for exactly one frame when asked for.
        io.KeysDown[SDL_SCANCODE_ESCAPE] = escape;
        escape = false;
      });
    };
    auto open_then_escape = [&](const char* what) {
      INFO(what);
      frame();
      frame();
      CHECK(files.dialog_open());
      escape = true;
      frame();  // Escape goes down.
      frame();  // The dialog sees it and closes.
      frame();
      CHECK_FALSE(files.dialog_open());
    };

    files.request_new(state);
    open_then_escape("new");
    files.request_open_dialog(state);
    open_then_escape("open");
    files.request_save_as(state);
    open_then_escape("save as");
    files.request_export(state);
    open_then_escape("export");
    files.open_path(state, source_path("tests/data/ok.scen").string());  // The import dialog, prefilled.
    open_then_escape("import");
    CHECK(exports == 0);

    rename_scenario(*state.doc, "edited");
    CHECK_FALSE(files.request_quit(state));
    CHECK(files.asking_unsaved());
    open_then_escape("unsaved changes");
    CHECK_FALSE(files.asking_unsaved());
    CHECK_FALSE(files.quit_confirmed());
    CHECK(state.doc->modified());
  }

  TEST_CASE("export_png writes a PNG of the requested size with no display") {
    ScopedEnv driver("SDL_VIDEODRIVER", "dummy");
    TempDir dir("export");
    Result<Scenario> loaded = load_scenario(source_path("maps/default.json"));
    REQUIRE(loaded);
    const PlanningWorld world(std::move(loaded).value());
    render::DrawList list;
    render::paint_world(world, 0, render::LayerSet::defaults(), list);
    REQUIRE_FALSE(list.empty());
    render::Camera camera;
    camera.set_viewport({0, 0}, {640, 480});
    const WorldInfo& w = world.scenario().world;
    camera.fit({0, 0}, {w.width, w.height});

    const fs::path out = dir.path / "view.png";
    const render::Camera cam = export_camera(camera, 320, 200);
    CHECK(cam.viewport_size() == Vec2(320, 200));
    CHECK(cam.center() == camera.center());
    REQUIRE(export_png(list, cam, 320, 200, out));
    const std::string bytes = read_text(out);
    REQUIRE(bytes.size() > 24);
    CHECK(bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    CHECK(bytes.compare(12, 4, "IHDR") == 0);
    auto be32 = [&](std::size_t at) {
      return (std::uint32_t(std::uint8_t(bytes[at])) << 24) |
             (std::uint32_t(std::uint8_t(bytes[at + 1])) << 16) |
             (std::uint32_t(std::uint8_t(bytes[at + 2])) << 8) | std::uint32_t(std::uint8_t(bytes[at + 3]));
    };
    CHECK(be32(16) == 320);
    CHECK(be32(20) == 200);
    CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) ==
          1);  // No temporary left.

    Status too_big = export_png(list, cam, 0, 200, out);
    REQUIRE_FALSE(too_big);
    CHECK(too_big.error().code == ErrorCode::Limit);
    Status no_folder = export_png(list, cam, 32, 32, dir.path / "missing" / "x.png");
    REQUIRE_FALSE(no_folder);
    CHECK(contains(no_folder.error().to_string(), "missing"));
  }
}
