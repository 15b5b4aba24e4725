// The File menu's ImGui side. Index:
//   [SECTION] Dialog state
//   [SECTION] Menu and shortcuts
//   [SECTION] Dialogs: unsaved changes, New, file browser, Moving AI import, Export PNG
//
// Only one modal is shown at a time. Requests to show one (from FileActions, or from
// another dialog) are opened at the start of the next draw() call, at the root of the
// ImGui ID stack, where BeginPopupModal looks for them. A dialog that needs a file
// (Import, Export) closes while the browser is shown and comes back when a file is
// chosen or the browser is cancelled.

#include "app/editor/file_dialogs.hpp"

#include "app/editor/document.hpp"
#include "app/editor/file_browser.hpp"
#include "app/platform/png_export.hpp"
#include "planner/scenario/movingai_parse.hpp"
#include "planner/sim/simulation.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace pathscope::app {

namespace fs = std::filesystem;

// [SECTION] Dialog state ---------------------------------------------------------------

namespace {

using Dialog = FileDialog;

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
    case BrowseFor::Open: return {".json", ".map", ".scen", ".psrec"};
    case BrowseFor::SaveAs: return {".json"};
    case BrowseFor::SaveGame: return {".json"};
    case BrowseFor::ImportMap: return {".map"};
    case BrowseFor::ImportScen: return {".scen"};
    case BrowseFor::ExportPng: return {".png"};
  }
  return {};
}

bool browser_saves(BrowseFor purpose) {
  return purpose == BrowseFor::SaveAs || purpose == BrowseFor::SaveGame || purpose == BrowseFor::ExportPng;
}

const char* browser_title(BrowseFor p) {
  switch (p) {
    case BrowseFor::Open: return "Open scenario###ps_browser";
    case BrowseFor::SaveAs: return "Save scenario as###ps_browser";
    case BrowseFor::SaveGame: return "Save game as###ps_browser";
    case BrowseFor::ImportMap: return "Choose a Moving AI map###ps_browser";
    case BrowseFor::ImportScen: return "Choose a Moving AI scenario file###ps_browser";
    case BrowseFor::ExportPng: return "Export to PNG file###ps_browser";
  }
  return "###ps_browser";
}

FileBrowserMode browser_mode(BrowseFor purpose) {
  return FileBrowserMode{browser_title(purpose), extensions_for(purpose), browser_saves(purpose)};
}

}  // namespace

// The forms' fields (in a named namespace: FileDialogs::Ui holds them).
namespace dialog_forms {

struct ImportForm {
  std::string map_path;
  std::string scen_path;
  std::string listed_scen;  // The .scen whose problems are listed.
  bool relist = false;      // List the problems of scen_path on the next frame.
  std::vector<MovingAiProblem> problems;
  std::vector<char> chosen;  // One flag per problem.
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

}  // namespace dialog_forms

using dialog_forms::ExportForm;
using dialog_forms::ImportForm;
using dialog_forms::NewForm;

// Everything the modals keep between frames.
struct FileDialogs::Ui {
  Dialog request = Dialog::None;           // Asked for by a dialog; opened at the start of the next draw().
  Dialog open = Dialog::None;              // The modal being shown.
  BrowseFor browse_for = BrowseFor::Open;  // What the next (or open) file browser is for.
  FileBrowser browser;
  ImportForm import;
  ExportForm export_form;
  NewForm new_form;
  std::string unsaved_name;
};

FileDialogs::FileDialogs() : ui_(std::make_unique<Ui>()) {}

FileDialogs::~FileDialogs() = default;

bool FileDialogs::showing() const { return ui_->open != Dialog::None || ui_->request != Dialog::None; }

// [SECTION] Menu and shortcuts ---------------------------------------------------------

void FileDialogs::menu_items(FileActions& actions, EditorState& state) {
  const bool have_doc = state.doc != nullptr;
  if (ImGui::MenuItem("New...", "Ctrl+N")) actions.request_new(state);
  if (ImGui::MenuItem("Open...", "Ctrl+O")) actions.request_open_dialog(state);
  if (ImGui::BeginMenu("Open Recent", !actions.recent().empty())) {
    std::string chosen;
    for (const std::string& path : actions.recent()) {
      if (ImGui::MenuItem(path.c_str())) chosen = path;
    }
    ImGui::Separator();
    const bool clear = ImGui::MenuItem("Clear Recent Files");
    ImGui::EndMenu();
    // Acted on after the loop: both change the list being drawn.
    if (!chosen.empty()) actions.open_recent(state, chosen);
    if (clear) actions.clear_recent();
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Save", "Ctrl+S", false, have_doc)) actions.save(state);
  if (ImGui::MenuItem("Save As...", "Ctrl+Shift+S", false, have_doc)) actions.request_save_as(state);
  char save_game[48];
  if (const std::optional<std::uint64_t> step = actions.game_step()) {
    std::snprintf(save_game, sizeof save_game, "Save Game As... (step %llu)###save_game",
                  static_cast<unsigned long long>(*step));
  } else {
    std::snprintf(save_game, sizeof save_game, "Save Game As...###save_game");
  }
  if (ImGui::MenuItem(save_game, nullptr, false, actions.game_step().has_value()))
    actions.request_save_game(state);
  state.probe.last_item("menu_save_game");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(
        "The simulation at the step on screen (the timeline's), as a scenario that runs on from there");
  ImGui::Separator();
  if (ImGui::MenuItem("Import Moving AI map...")) actions.request_import(state);
  if (ImGui::MenuItem("Export PNG...", nullptr, false, have_doc)) actions.request_export(state);
  ImGui::Separator();
  if (ImGui::MenuItem("Quit", "Ctrl+Q")) actions.quit(state);
}

void FileDialogs::shortcuts(FileActions& actions, EditorState& state) {
  // Not while a menu or any modal is open: they own the keyboard then.
  if (actions.dialog_open() || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) return;
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.KeyCtrl || io.KeyAlt) return;
  // ImGui 1.86 indexes keys by SDL scancode.
  auto pressed = [](SDL_Scancode key) { return ImGui::IsKeyPressed(key, false); };
  if (pressed(SDL_SCANCODE_S)) {
    if (io.KeyShift) {
      actions.request_save_as(state);
    } else {
      actions.save(state);
    }
  } else if (io.KeyShift) {
    return;
  } else if (pressed(SDL_SCANCODE_N)) {
    actions.request_new(state);
  } else if (pressed(SDL_SCANCODE_O)) {
    actions.request_open_dialog(state);
  } else if (pressed(SDL_SCANCODE_Q)) {
    actions.quit(state);
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

void FileDialogs::open_requested(FileActions& actions, EditorState& state) {
  // What an action asked for replaces what a dialog asked for, with a fresh form.
  if (std::optional<FileDialogRequest> asked = actions.take_dialog_request()) {
    ui_->request = asked->dialog;
    switch (asked->dialog) {
      case Dialog::Unsaved: ui_->unsaved_name = asked->document_name; break;
      case Dialog::New: ui_->new_form.error.clear(); break;
      case Dialog::Browser: ui_->browse_for = asked->browse_for; break;
      case Dialog::Import:
        if (asked->scen_path.empty()) {
          ui_->import.error.clear();
        } else {
          ui_->import = ImportForm{};
          ui_->import.scen_path = asked->scen_path;
          ui_->import.relist = true;
        }
        break;
      case Dialog::Export: ui_->export_form.error.clear(); break;
      case Dialog::None: break;
    }
  }
  if (ui_->request == Dialog::None) return;
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
      case BrowseFor::SaveGame:
        if (state.doc && !state.doc->path().empty()) start = state.doc->path().parent_path();
        name = (state.doc ? fs::path(state.doc->display_name()).stem().string() : std::string("game")) +
               "_step" + std::to_string(actions.game_step().value_or(0)) + ".json";
        break;
      case BrowseFor::ImportMap: start = fs::path(ui_->import.map_path).parent_path(); break;
      case BrowseFor::ImportScen: start = fs::path(ui_->import.scen_path).parent_path(); break;
      case BrowseFor::ExportPng:
        start = fs::path(ui_->export_form.path).parent_path();
        name = fs::path(ui_->export_form.path).filename().string();
        if (name.empty())
          name = state.doc ? fs::path(state.doc->display_name()).stem().string() + ".png" : "view.png";
        break;
      case BrowseFor::Open: break;
    }
    std::error_code ec;
    const std::string& last = actions.settings().last_directory;
    if (start.empty() || !fs::is_directory(start, ec)) start = last;
    if (start.empty() || !fs::is_directory(start, ec)) start = fs::current_path(ec);
    ui_->browser.open(browser_mode(purpose), start, name);
  }
  ImGui::OpenPopup(popup_id(ui_->open));
}

void FileDialogs::draw(FileActions& actions, EditorState& state, const ExportRequestFn& export_request) {
  open_requested(actions, state);
  switch (ui_->open) {
    case Dialog::None: break;
    case Dialog::Unsaved: unsaved_dialog(actions, state); break;
    case Dialog::New: new_dialog(actions, state); break;
    case Dialog::Browser: browser_dialog(actions, state); break;
    case Dialog::Import: import_dialog(actions, state); break;
    case Dialog::Export: export_dialog(actions, state, export_request); break;
  }
}

void FileDialogs::unsaved_dialog(FileActions& actions, EditorState& state) {
  center_next_window(0, 0);
  if (!begin_modal(Dialog::Unsaved, ImGuiWindowFlags_AlwaysAutoResize)) {
    actions.answer_unsaved(state, FileActions::UnsavedAnswer::Cancel);
    ui_->open = Dialog::None;
    return;
  }
  ImGui::Text("\"%s\" has unsaved changes.", ui_->unsaved_name.c_str());
  ImGui::TextUnformatted("Save them before continuing?");
  ImGui::Spacing();
  std::optional<FileActions::UnsavedAnswer> answer;
  if (ImGui::Button("Save", ImVec2(100, 0))) answer = FileActions::UnsavedAnswer::Save;
  ImGui::SameLine();
  if (ImGui::Button("Discard", ImVec2(100, 0))) answer = FileActions::UnsavedAnswer::Discard;
  ImGui::SameLine();
  if (ImGui::Button("Cancel", ImVec2(100, 0)) || escape_pressed())
    answer = FileActions::UnsavedAnswer::Cancel;
  if (answer) {
    ImGui::CloseCurrentPopup();
    ui_->open = Dialog::None;
    actions.answer_unsaved(state, *answer);
  }
  ImGui::EndPopup();
}

void FileDialogs::new_dialog(FileActions& actions, EditorState& state) {
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
    ImGui::TextDisabled("grid: %.0f x %.0f cells (at most %d per side)",
                        std::ceil(p.width / p.cell_size - 1e-9), std::ceil(p.height / p.cell_size - 1e-9),
                        ScenarioLimits::kMaxGridSide);
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
    if (Status made = actions.create_new(state, p); made) {
      close = true;
    } else {
      form.error = made.error().to_string();
    }
  }
  end_form(close);
}

void FileDialogs::browser_dialog(FileActions& actions, EditorState& state) {
  const FileBrowser::Outcome outcome = ui_->browser.draw();
  if (outcome == FileBrowser::Outcome::Open) return;
  ui_->open = Dialog::None;
  const BrowseFor purpose = ui_->browse_for;
  if (outcome == FileBrowser::Outcome::Closed) {
    // Closed by its title bar button: Cancel, without the popup calls.
    actions.save_as_chosen(state, std::nullopt);  // Drops an action waiting for Save As.
    if (purpose == BrowseFor::ImportMap || purpose == BrowseFor::ImportScen) ui_->request = Dialog::Import;
    if (purpose == BrowseFor::ExportPng) ui_->request = Dialog::Export;
    return;
  }
  // Where to go back to when the browser closes, and what Cancel means.
  std::optional<fs::path> chosen;
  if (outcome == FileBrowser::Outcome::Chosen) chosen = ui_->browser.chosen();
  switch (purpose) {
    case BrowseFor::Open:
      if (chosen) actions.open_chosen(state, chosen->string());
      break;
    case BrowseFor::SaveAs: actions.save_as_chosen(state, chosen); break;
    case BrowseFor::SaveGame:
      if (chosen) (void)actions.save_game_as(state, *chosen);
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
  if (chosen) actions.set_last_directory(chosen->parent_path());
}

void FileDialogs::import_dialog(FileActions& actions, EditorState& state) {
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
      if (f.map_path.empty() && !f.problems.empty())
        f.map_path = scen_map_path(f.scen_path, f.problems.front()).string();
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
  if (ImGui::InputText("problems (.scen)", &f.scen_path, ImGuiInputTextFlags_EnterReturnsTrue))
    f.relist = true;
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
    const ImGuiTableFlags flags =
        ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV;
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
    if (actions.import_movingai(state, f.map_path, scen, indices)) {
      close = true;
    } else {
      f.error = state.messages.empty() ? "import failed" : state.messages.back().text;
    }
  }
  ImGui::EndDisabled();
  end_form(close);
}

void FileDialogs::export_dialog(FileActions& actions, EditorState& state,
                                const ExportRequestFn& export_request) {
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
    if (Result<fs::path> written = actions.export_image(state, export_request, w, h, f.path); written) {
      f.path = written->string();
      f.error.clear();
      close = true;
    } else {
      f.error = written.error().to_string();
    }
  }
  end_form(close, ui_->open == Dialog::Export);
}

void FileDialogs::end_form(bool close, bool may_close) {
  ImGui::SameLine();
  if (ImGui::Button("Cancel", ImVec2(100, 0)) || escape_pressed()) close = true;
  if (close && may_close) {
    ImGui::CloseCurrentPopup();
    ui_->open = Dialog::None;
  }
  ImGui::EndPopup();
}

}  // namespace pathscope::app
