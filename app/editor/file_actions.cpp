// The File menu. Index:
//   [SECTION] Helpers: dialog state
//   [SECTION] Actions: open, save, import, quit, the unsaved-changes flow
//   [SECTION] Menu and shortcuts
//   [SECTION] Dialogs: unsaved changes, New, file browser, Moving AI import, Export PNG
//
// Only one modal is shown at a time. Requests to show one (from the menu, a shortcut or
// another dialog) are kept in Ui::request and opened at the start of the next
// dialogs() call, at the root of the ImGui ID stack, where BeginPopupModal looks for
// them. A dialog that needs a file (Import, Export) closes while the browser is shown
// and comes back when a file is chosen or the browser is cancelled.

#include "app/editor/file_actions.hpp"

#include "app/editor/file_browser.hpp"
#include "app/platform/png_export.hpp"
#include "planner/scenario/movingai_check.hpp"
#include "planner/scenario/movingai_convert.hpp"
#include "planner/scenario/movingai_parse.hpp"
#include "planner/scenario/scenario_io.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <system_error>
#include <utility>

namespace pathscope::app {

namespace fs = std::filesystem;

// [SECTION] Helpers ------------------------------------------------------------------

namespace {

std::string format_number(double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}

}  // namespace

// Dialog state: everything the modals keep between frames.
namespace {

enum class Dialog { None, Unsaved, New, Browser, Import, Export };
enum class BrowseFor { Open, SaveAs, ImportMap, ImportScen, ExportPng };

const char* popup_id(Dialog d) {
  switch (d) {
    case Dialog::Unsaved: return "Unsaved changes###ps_unsaved";
    case Dialog::New: return "New scenario###ps_new";
    case Dialog::Browser: return "###ps_browser";
    case Dialog::Import: return "Import Moving AI map###ps_import";
    case Dialog::Export: return "Export PNG###ps_export";
    case Dialog::None: break;
  }
  return "";
}

std::vector<std::string> extensions_for(BrowseFor purpose) {
  switch (purpose) {
    case BrowseFor::Open: return {".json", ".map", ".scen"};
    case BrowseFor::SaveAs: return {".json"};
    case BrowseFor::ImportMap: return {".map"};
    case BrowseFor::ImportScen: return {".scen"};
    case BrowseFor::ExportPng: return {".png"};
  }
  return {};
}

bool browser_saves(BrowseFor purpose) { return purpose == BrowseFor::SaveAs || purpose == BrowseFor::ExportPng; }

const char* browser_title(BrowseFor p) {
  switch (p) {
    case BrowseFor::Open: return "Open scenario###ps_browser";
    case BrowseFor::SaveAs: return "Save scenario as###ps_browser";
    case BrowseFor::ImportMap: return "Choose a Moving AI map###ps_browser";
    case BrowseFor::ImportScen: return "Choose a Moving AI scenario file###ps_browser";
    case BrowseFor::ExportPng: return "Export to PNG file###ps_browser";
  }
  return "###ps_browser";
}

FileBrowserMode browser_mode(BrowseFor purpose) {
  return FileBrowserMode{browser_title(purpose), extensions_for(purpose), browser_saves(purpose)};
}

struct ImportForm {
  std::string map_path;
  std::string scen_path;
  std::string listed_scen;         // The .scen whose problems are listed.
  bool relist = false;             // List the problems of scen_path on the next frame.
  std::vector<MovingAiProblem> problems;
  std::vector<char> chosen;        // One flag per problem.
  std::string error;
};

struct ExportForm {
  bool window_size = true;
  int width = 1920;
  int height = 1080;
  std::string path;
  std::string error;
};

struct NewForm {
  NewScenarioParams params;
  std::string error;
};

}  // namespace

struct FileActions::Ui {
  Dialog request = Dialog::None;  // Opened at the start of the next dialogs().
  Dialog open = Dialog::None;     // The modal being shown.
  BrowseFor browse_for = BrowseFor::Open;  // What the next (or open) file browser is for.
  FileBrowser browser;
  ImportForm import;
  ExportForm export_form;
  NewForm new_form;
  std::string unsaved_name;
};

// [SECTION] Actions -------------------------------------------------------------------

FileActions::FileActions(AppSettings settings, bool persist)
    : settings_(std::move(settings)), persist_(persist), ui_(std::make_unique<Ui>()) {
  if (settings_.recent_files.size() > kMaxRecentFiles) settings_.recent_files.resize(kMaxRecentFiles);
}

FileActions::~FileActions() = default;

bool FileActions::dialog_open() const { return ui_->open != Dialog::None || ui_->request != Dialog::None; }

void FileActions::set_recent(std::vector<std::string> files) {
  settings_.recent_files = std::move(files);
  if (settings_.recent_files.size() > kMaxRecentFiles) settings_.recent_files.resize(kMaxRecentFiles);
}

void FileActions::request_new(EditorState& state) { when_saved_or_discarded(state, {Next::New, {}}); }

void FileActions::request_open_dialog(EditorState& state) { when_saved_or_discarded(state, {Next::Open, {}}); }

void FileActions::request_import(EditorState& state) { when_saved_or_discarded(state, {Next::Import, {}}); }

void FileActions::request_save_as(EditorState& state) {
  if (!state.doc) return;
  ui_->browse_for = BrowseFor::SaveAs;
  ui_->request = Dialog::Browser;
}

void FileActions::request_export(EditorState& state) {
  if (!state.doc) return;
  ui_->export_form.error.clear();
  ui_->request = Dialog::Export;
}

void FileActions::persist() {
  if (persist_) save_settings(settings_);
}

void FileActions::remember(const fs::path& path) {
  remember_recent_file(settings_.recent_files, path);
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  if (!ec) settings_.last_directory = absolute.parent_path().string();
  persist();
}

void FileActions::set_last_directory(const fs::path& dir) {
  if (settings_.last_directory == dir.string()) return;
  settings_.last_directory = dir.string();
  persist();
}

bool FileActions::request_quit(EditorState& state) {
  if (quit_confirmed_ || !state.doc || !state.doc->modified()) return true;
  when_saved_or_discarded(state, {Next::Quit, {}});
  return false;
}

void FileActions::confirm_quit() {
  quit_confirmed_ = true;
  // The window loop ends on SDL_QUIT; with no event queue (tests) this does nothing.
  SDL_Event quit{};
  quit.type = SDL_QUIT;
  SDL_PushEvent(&quit);
}

void FileActions::open_path(EditorState& state, const std::string& path) {
  when_saved_or_discarded(state, {Next::OpenPath, path});
}

void FileActions::open_recent(EditorState& state, const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    state.report(path + ": no longer exists; removed from the recent files");
    forget_recent_file(settings_.recent_files, path);
    persist();
    return;
  }
  open_path(state, path);
}

bool FileActions::load_path(EditorState& state, const fs::path& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".json") {
    Result<Scenario> loaded = load_scenario(path);
    if (!loaded) {
      state.report(loaded.error().to_string());
      return false;
    }
    state.open_document(std::make_unique<Document>(std::move(loaded).value(), path));
  } else if (ext == ".map") {
    Result<MovingAiMap> map = load_movingai_map(path);
    if (!map) {
      state.report(map.error().to_string());
      return false;
    }
    // A .map is imported, not edited in place: saving asks for a scenario file.
    state.open_document(std::make_unique<Document>(movingai_to_scenario(*map)));
  } else {
    state.report(path.string() +
                 ": unknown file type; Pathscope opens .json scenarios and Moving AI .map files "
                 "(.scen files through File > Import Moving AI map)");
    return false;
  }
  remember(path);
  state.report("opened " + path.string());
  return true;
}

bool FileActions::save(EditorState& state) {
  if (!state.doc) return false;
  const fs::path& path = state.doc->path();
  if (path.empty() || lower_extension(path) != ".json") {
    request_save_as(state);
    return false;
  }
  return save_as(state, path);
}

bool FileActions::save_as(EditorState& state, const fs::path& path) {
  if (!state.doc) return false;
  if (Status saved = save_scenario(state.doc->scenario(), path); !saved) {
    state.report("cannot save: " + saved.error().to_string());
    return false;
  }
  state.doc->mark_saved(path);
  remember(path);
  state.report("saved " + path.string());
  return true;
}

bool FileActions::import_movingai(EditorState& state, const fs::path& map_path, const fs::path& scen_path,
                                  std::span<const std::size_t> chosen) {
  Result<MovingAiMap> map = load_movingai_map(map_path);
  if (!map) {
    state.report("cannot import: " + map.error().to_string());
    return false;
  }
  Scenario scenario;
  if (scen_path.empty()) {
    scenario = movingai_to_scenario(*map);
  } else {
    Result<std::vector<MovingAiProblem>> problems = load_movingai_scen(scen_path);
    if (!problems) {
      state.report("cannot import: " + problems.error().to_string());
      return false;
    }
    std::vector<MovingAiProblem> picked;
    for (const std::size_t i : chosen) {
      if (i < problems->size()) picked.push_back((*problems)[i]);
    }
    if (Status fits = check_movingai_problems(*map, picked, scen_path.string()); !fits) {
      state.report("cannot import: " + fits.error().to_string());
      return false;
    }
    scenario = movingai_to_scenario(*map, picked);
  }
  const std::size_t queries = scenario.queries.size();
  state.open_document(std::make_unique<Document>(std::move(scenario)));
  remember(map_path);
  state.report("imported " + map_path.string() + " with " + std::to_string(queries) + " queries");
  return true;
}

bool FileActions::asking_unsaved() const { return pending_.next != Next::None; }

void FileActions::when_saved_or_discarded(EditorState& state, Pending action) {
  if (state.doc && state.doc->modified()) {
    pending_ = std::move(action);
    ui_->unsaved_name = state.doc->display_name();
    ui_->request = Dialog::Unsaved;
    return;
  }
  run(state, action);
}

void FileActions::answer_unsaved(EditorState& state, UnsavedAnswer answer) {
  const Pending action = std::exchange(pending_, Pending{});
  if (ui_->request == Dialog::Unsaved) ui_->request = Dialog::None;
  if (action.next == Next::None) return;
  switch (answer) {
    case UnsavedAnswer::Cancel: return;
    case UnsavedAnswer::Discard: run(state, action); return;
    case UnsavedAnswer::Save:
      if (!state.doc) {
        run(state, action);
      } else if (!state.doc->path().empty() && lower_extension(state.doc->path()) == ".json") {
        if (save_as(state, state.doc->path())) run(state, action);
      } else {
        after_save_as_ = action;  // Continues in the browser once a file is written.
        ui_->browse_for = BrowseFor::SaveAs;
        ui_->request = Dialog::Browser;
      }
      return;
  }
}

void FileActions::run(EditorState& state, const Pending& action) {
  switch (action.next) {
    case Next::None: return;
    case Next::New:
      ui_->new_form.error.clear();
      ui_->request = Dialog::New;
      return;
    case Next::Open:
      ui_->browse_for = BrowseFor::Open;
      ui_->request = Dialog::Browser;
      return;
    case Next::Import:
      ui_->import.error.clear();
      ui_->request = Dialog::Import;
      return;
    case Next::OpenPath:
      if (lower_extension(action.path) == ".scen") {
        ui_->import = ImportForm{};
        ui_->import.scen_path = action.path;
        ui_->import.relist = true;
        ui_->request = Dialog::Import;
        return;
      }
      load_path(state, action.path);
      return;
    case Next::Quit: confirm_quit(); return;
  }
}

// [SECTION] Menu and shortcuts ---------------------------------------------------------

void FileActions::menu_items(EditorState& state) {
  const bool have_doc = state.doc != nullptr;
  if (ImGui::MenuItem("New...", "Ctrl+N")) request_new(state);
  if (ImGui::MenuItem("Open...", "Ctrl+O")) request_open_dialog(state);
  if (ImGui::BeginMenu("Open Recent", !settings_.recent_files.empty())) {
    std::string chosen;
    for (const std::string& path : settings_.recent_files) {
      if (ImGui::MenuItem(path.c_str())) chosen = path;
    }
    ImGui::Separator();
    const bool clear = ImGui::MenuItem("Clear Recent Files");
    ImGui::EndMenu();
    // Acted on after the loop: both change the list being drawn.
    if (!chosen.empty()) open_recent(state, chosen);
    if (clear) {
      settings_.recent_files.clear();
      persist();
    }
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Save", "Ctrl+S", false, have_doc)) save(state);
  if (ImGui::MenuItem("Save As...", "Ctrl+Shift+S", false, have_doc)) request_save_as(state);
  ImGui::Separator();
  if (ImGui::MenuItem("Import Moving AI map...")) request_import(state);
  if (ImGui::MenuItem("Export PNG...", nullptr, false, have_doc)) request_export(state);
  ImGui::Separator();
  if (ImGui::MenuItem("Quit", "Ctrl+Q") && request_quit(state)) confirm_quit();
}

void FileActions::shortcuts(EditorState& state) {
  // Not while a menu or any modal is open: they own the keyboard then.
  if (dialog_open() || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) return;
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.KeyCtrl || io.KeyAlt) return;
  // ImGui 1.86 indexes keys by SDL scancode.
  auto pressed = [](SDL_Scancode key) { return ImGui::IsKeyPressed(key, false); };
  if (pressed(SDL_SCANCODE_S)) {
    if (io.KeyShift) {
      request_save_as(state);
    } else {
      save(state);
    }
  } else if (io.KeyShift) {
    return;
  } else if (pressed(SDL_SCANCODE_N)) {
    request_new(state);
  } else if (pressed(SDL_SCANCODE_O)) {
    request_open_dialog(state);
  } else if (pressed(SDL_SCANCODE_Q)) {
    if (request_quit(state)) confirm_quit();
  }
}

// [SECTION] Dialogs --------------------------------------------------------------------

namespace {

// A modal that was open but is no longer (its close button): treated as Cancel.
bool begin_modal(Dialog d, ImGuiWindowFlags flags = 0) {
  bool keep = true;
  if (!ImGui::BeginPopupModal(popup_id(d), &keep, flags)) return false;
  if (!keep) {
    ImGui::EndPopup();
    return false;
  }
  return true;
}

}  // namespace

void FileActions::dialogs(EditorState& state, const ExportRequestFn& export_request) {
  if (ui_->request != Dialog::None) {
    ui_->open = std::exchange(ui_->request, Dialog::None);
    if (ui_->open == Dialog::Browser) {
      // A fresh browser in the folder of the relevant file, else the last folder used.
      const BrowseFor purpose = ui_->browse_for;
      fs::path start;
      std::string name;
      switch (purpose) {
        case BrowseFor::SaveAs:
          if (state.doc && !state.doc->path().empty()) start = state.doc->path().parent_path();
          name = state.doc ? fs::path(state.doc->display_name()).stem().string() + ".json" : "untitled.json";
          break;
        case BrowseFor::ImportMap: start = fs::path(ui_->import.map_path).parent_path(); break;
        case BrowseFor::ImportScen: start = fs::path(ui_->import.scen_path).parent_path(); break;
        case BrowseFor::ExportPng:
          start = fs::path(ui_->export_form.path).parent_path();
          name = fs::path(ui_->export_form.path).filename().string();
          if (name.empty()) name = state.doc ? fs::path(state.doc->display_name()).stem().string() + ".png" : "view.png";
          break;
        case BrowseFor::Open: break;
      }
      std::error_code ec;
      if (start.empty() || !fs::is_directory(start, ec)) start = settings_.last_directory;
      if (start.empty() || !fs::is_directory(start, ec)) start = fs::current_path(ec);
      ui_->browser.open(browser_mode(purpose), start, name);
    }
    ImGui::OpenPopup(popup_id(ui_->open));
  }
  switch (ui_->open) {
    case Dialog::None: break;
    case Dialog::Unsaved: unsaved_dialog(state); break;
    case Dialog::New: new_dialog(state); break;
    case Dialog::Browser: browser_dialog(state); break;
    case Dialog::Import: import_dialog(state); break;
    case Dialog::Export: export_dialog(state, export_request); break;
  }
}

void FileActions::unsaved_dialog(EditorState& state) {
  center_next_window(0, 0);
  if (!begin_modal(Dialog::Unsaved, ImGuiWindowFlags_AlwaysAutoResize)) {
    answer_unsaved(state, UnsavedAnswer::Cancel);
    ui_->open = Dialog::None;
    return;
  }
  ImGui::Text("\"%s\" has unsaved changes.", ui_->unsaved_name.c_str());
  ImGui::TextUnformatted("Save them before continuing?");
  ImGui::Spacing();
  std::optional<UnsavedAnswer> answer;
  if (ImGui::Button("Save", ImVec2(100, 0))) answer = UnsavedAnswer::Save;
  ImGui::SameLine();
  if (ImGui::Button("Discard", ImVec2(100, 0))) answer = UnsavedAnswer::Discard;
  ImGui::SameLine();
  if (ImGui::Button("Cancel", ImVec2(100, 0)) || escape_pressed()) answer = UnsavedAnswer::Cancel;
  if (answer) {
    ImGui::CloseCurrentPopup();
    ui_->open = Dialog::None;
    answer_unsaved(state, *answer);
  }
  ImGui::EndPopup();
}

void FileActions::new_dialog(EditorState& state) {
  center_next_window(0, 0);
  if (!begin_modal(Dialog::New, ImGuiWindowFlags_AlwaysAutoResize)) {
    ui_->open = Dialog::None;
    return;
  }
  NewForm& form = ui_->new_form;
  NewScenarioParams& p = form.params;
  ImGui::SetNextItemWidth(160);
  ImGui::InputDouble("world width (m)", &p.width, 16, 128, "%g");
  ImGui::SetNextItemWidth(160);
  ImGui::InputDouble("world height (m)", &p.height, 16, 128, "%g");
  ImGui::SetNextItemWidth(160);
  ImGui::InputDouble("cell size (m)", &p.cell_size, 0.5, 1, "%g");
  if (p.width > 0 && p.height > 0 && p.cell_size > 0) {
    ImGui::TextDisabled("grid: %.0f x %.0f cells (at most %d per side)", std::ceil(p.width / p.cell_size - 1e-9),
                        std::ceil(p.height / p.cell_size - 1e-9), ScenarioLimits::kMaxGridSide);
  }
  static const std::vector<TerrainType> terrains = default_terrain_types();
  p.terrain = std::min(p.terrain, terrains.size() - 1);
  ImGui::SetNextItemWidth(160);
  if (ImGui::BeginCombo("terrain", terrains[p.terrain].name.c_str())) {
    for (std::size_t i = 0; i < terrains.size(); ++i) {
      if (ImGui::Selectable(terrains[i].name.c_str(), i == p.terrain)) p.terrain = i;
    }
    ImGui::EndCombo();
  }
  error_text(form.error);
  ImGui::Spacing();
  bool close = false;
  if (ImGui::Button("Create", ImVec2(100, 0))) {
    Result<Scenario> made = make_new_scenario(p);
    if (made) {
      state.open_document(std::make_unique<Document>(std::move(made).value()));
      state.report("new scenario: " + format_number(p.width) + " x " + format_number(p.height) + " m");
      close = true;
    } else {
      form.error = made.error().to_string();
    }
  }
  end_form(close);
}

void FileActions::browser_dialog(EditorState& state) {
  const FileBrowser::Outcome outcome = ui_->browser.draw();
  if (outcome == FileBrowser::Outcome::Open) return;
  ui_->open = Dialog::None;
  const BrowseFor purpose = ui_->browse_for;
  if (outcome == FileBrowser::Outcome::Closed) {
    // Closed by its title bar button: Cancel, without the popup calls.
    after_save_as_.reset();
    if (purpose == BrowseFor::ImportMap || purpose == BrowseFor::ImportScen) ui_->request = Dialog::Import;
    if (purpose == BrowseFor::ExportPng) ui_->request = Dialog::Export;
    return;
  }
  // Where to go back to when the browser closes, and what Cancel means.
  std::optional<fs::path> chosen;
  if (outcome == FileBrowser::Outcome::Chosen) chosen = ui_->browser.chosen();
  switch (purpose) {
    case BrowseFor::Open:
      if (chosen) run(state, {Next::OpenPath, chosen->string()});
      break;
    case BrowseFor::SaveAs:
      if (chosen && save_as(state, *chosen)) {
        if (after_save_as_) run(state, *std::exchange(after_save_as_, std::nullopt));
      } else {
        after_save_as_.reset();
      }
      break;
    case BrowseFor::ImportMap:
      if (chosen) ui_->import.map_path = chosen->string();
      ui_->request = Dialog::Import;
      break;
    case BrowseFor::ImportScen:
      if (chosen) {
        ui_->import.scen_path = chosen->string();
        ui_->import.relist = true;
      }
      ui_->request = Dialog::Import;
      break;
    case BrowseFor::ExportPng:
      if (chosen) ui_->export_form.path = chosen->string();
      ui_->request = Dialog::Export;
      break;
  }
  if (chosen) set_last_directory(chosen->parent_path());
}

void FileActions::import_dialog(EditorState& state) {
  center_next_window(760, 520);
  if (!begin_modal(Dialog::Import)) {
    ui_->open = Dialog::None;
    return;
  }
  ImportForm& f = ui_->import;
  auto browse = [&](BrowseFor purpose) {
    ImGui::CloseCurrentPopup();
    ui_->open = Dialog::None;
    ui_->browse_for = purpose;
    ui_->request = Dialog::Browser;
  };
  // The problems of a .scen are listed when it is chosen (browser, Enter, List).
  if (std::exchange(f.relist, false) && !f.scen_path.empty()) {
    f.listed_scen = f.scen_path;
    f.problems.clear();
    f.chosen.clear();
    Result<std::vector<MovingAiProblem>> loaded = load_movingai_scen(f.scen_path);
    if (loaded) {
      f.problems = std::move(loaded).value();
      f.chosen.assign(f.problems.size(), 0);
      f.error.clear();
      if (f.map_path.empty() && !f.problems.empty()) f.map_path = scen_map_path(f.scen_path, f.problems.front()).string();
    } else {
      f.error = loaded.error().to_string();
    }
  }
  const float field = ImGui::GetContentRegionAvail().x - 260;
  ImGui::SetNextItemWidth(field);
  ImGui::InputText("map (.map)", &f.map_path);
  ImGui::SameLine();
  if (ImGui::Button("Browse...##map")) browse(BrowseFor::ImportMap);
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputText("problems (.scen)", &f.scen_path, ImGuiInputTextFlags_EnterReturnsTrue)) f.relist = true;
  ImGui::SameLine();
  if (ImGui::Button("Browse...##scen")) browse(BrowseFor::ImportScen);
  ImGui::SameLine();
  if (ImGui::Button("List")) f.relist = true;

  std::size_t picked = 0;
  for (const char c : f.chosen) picked += c ? 1 : 0;
  if (!f.problems.empty()) {
    ImGui::Text("%zu problems, %zu chosen as queries", f.problems.size(), picked);
    ImGui::SameLine();
    if (ImGui::SmallButton("all")) std::fill(f.chosen.begin(), f.chosen.end(), 1);
    ImGui::SameLine();
    if (ImGui::SmallButton("none")) std::fill(f.chosen.begin(), f.chosen.end(), 0);
    ImGui::SameLine();
    if (ImGui::SmallButton("first 10")) {
      for (std::size_t i = 0; i < f.chosen.size(); ++i) f.chosen[i] = i < 10 ? 1 : 0;
    }
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV;
    const float footer = ImGui::GetFrameHeightWithSpacing() * 2 + ImGui::GetTextLineHeightWithSpacing();
    if (ImGui::BeginTable("##problems", 6, flags, ImVec2(0, -footer))) {
      ImGui::TableSetupScrollFreeze(0, 1);
      ImGui::TableSetupColumn("use", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("line", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("bucket", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("start");
      ImGui::TableSetupColumn("goal");
      ImGui::TableSetupColumn("optimal length");
      ImGui::TableHeadersRow();
      ImGuiListClipper clipper;
      clipper.Begin(static_cast<int>(f.problems.size()));
      while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
          const auto k = static_cast<std::size_t>(i);
          const MovingAiProblem& p = f.problems[k];
          ImGui::TableNextRow();
          ImGui::TableSetColumnIndex(0);
          ImGui::PushID(i);
          bool use = f.chosen[k] != 0;
          if (ImGui::Checkbox("##use", &use)) f.chosen[k] = use ? 1 : 0;
          ImGui::PopID();
          ImGui::TableSetColumnIndex(1);
          ImGui::Text("%d", p.line);
          ImGui::TableSetColumnIndex(2);
          ImGui::Text("%d", p.bucket);
          ImGui::TableSetColumnIndex(3);
          ImGui::Text("(%d, %d)", p.start.x, p.start.y);
          ImGui::TableSetColumnIndex(4);
          ImGui::Text("(%d, %d)", p.goal.x, p.goal.y);
          ImGui::TableSetColumnIndex(5);
          ImGui::Text("%.4f", p.optimal_length);
        }
      }
      ImGui::EndTable();
    }
  } else {
    ImGui::TextDisabled("Optionally choose a .scen file: its problems can become queries.");
  }
  error_text(f.error);
  bool close = false;
  ImGui::BeginDisabled(f.map_path.empty());
  if (ImGui::Button("Import", ImVec2(100, 0))) {
    std::vector<std::size_t> indices;
    for (std::size_t i = 0; i < f.chosen.size(); ++i) {
      if (f.chosen[i]) indices.push_back(i);
    }
    const fs::path scen = f.problems.empty() ? fs::path() : fs::path(f.listed_scen);
    if (import_movingai(state, f.map_path, scen, indices)) {
      close = true;
    } else {
      f.error = state.messages.empty() ? "import failed" : state.messages.back();
    }
  }
  ImGui::EndDisabled();
  end_form(close);
}

void FileActions::export_dialog(EditorState& state, const ExportRequestFn& export_request) {
  center_next_window(0, 0);
  if (!begin_modal(Dialog::Export, ImGuiWindowFlags_AlwaysAutoResize)) {
    ui_->open = Dialog::None;
    return;
  }
  ExportForm& f = ui_->export_form;
  const ImGuiIO& io = ImGui::GetIO();
  const int window_w = static_cast<int>(io.DisplaySize.x);
  const int window_h = static_cast<int>(io.DisplaySize.y);
  if (ImGui::RadioButton("window size", f.window_size)) f.window_size = true;
  ImGui::SameLine();
  ImGui::TextDisabled("(%d x %d)", window_w, window_h);
  if (ImGui::RadioButton("custom", !f.window_size)) f.window_size = false;
  ImGui::BeginDisabled(f.window_size);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110);
  ImGui::InputInt("##w", &f.width, 0);
  ImGui::SameLine();
  ImGui::TextUnformatted("x");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110);
  ImGui::InputInt("##h", &f.height, 0);
  ImGui::EndDisabled();
  f.width = std::clamp(f.width, 1, kMaxExportSide);
  f.height = std::clamp(f.height, 1, kMaxExportSide);
  ImGui::SetNextItemWidth(420);
  ImGui::InputText("file", &f.path);
  ImGui::SameLine();
  bool close = false;
  if (ImGui::Button("Browse...")) {
    ImGui::CloseCurrentPopup();
    ui_->open = Dialog::None;
    ui_->browse_for = BrowseFor::ExportPng;
    ui_->request = Dialog::Browser;
  }
  error_text(f.error);
  if (ImGui::Button("Export", ImVec2(100, 0))) {
    const int w = f.window_size ? window_w : f.width;
    const int h = f.window_size ? window_h : f.height;
    fs::path out = f.path;
    if (lower_extension(out) != ".png" && !out.empty()) out += ".png";
    if (out.empty()) {
      f.error = "choose a file";
    } else if (!export_request) {
      f.error = "exporting is not available here";
    } else if (Status written = export_request(w, h, out); !written) {
      f.error = written.error().to_string();
      state.report("cannot export: " + f.error);
    } else {
      f.path = out.string();
      f.error.clear();
      std::error_code ec;
      if (const fs::path absolute = fs::absolute(out, ec); !ec) set_last_directory(absolute.parent_path());
      state.report("exported " + out.string() + " (" + std::to_string(w) + " x " + std::to_string(h) + ")");
      close = true;
    }
  }
  end_form(close, ui_->open == Dialog::Export);
}

void FileActions::end_form(bool close, bool may_close) {
  ImGui::SameLine();
  if (ImGui::Button("Cancel", ImVec2(100, 0)) || escape_pressed()) close = true;
  if (close && may_close) {
    ImGui::CloseCurrentPopup();
    ui_->open = Dialog::None;
  }
  ImGui::EndPopup();
}

}  // namespace pathscope::app
