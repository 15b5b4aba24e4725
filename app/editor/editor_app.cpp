// The editor's frame: shortcuts, canvas input, re-planning after edits, painting.
// Panels live in editor_panels.cpp.

#include "app/editor/editor_app.hpp"

#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>

#include "app/debugger/comparison_panel.hpp"
#include "app/editor/inspector.hpp"
#include "app/platform/png_export.hpp"
#include "app/platform/pointer_input.hpp"
#include "app/platform/window_placement.hpp"
#include "app/sim/sim_panel.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "render/map/scene_painter.hpp"
#include "render/search/trace_painter.hpp"
#include "render/sim/crowd_painter.hpp"
#include "render/sim/sim_painter.hpp"

namespace pathscope::app {

EditorApp::EditorApp(SDL_Window* window, SDL_Renderer* renderer, AppSettings settings)
    : window_(window), renderer_(renderer), files_(settings, true), adapter_(renderer) {
  // File > Save Game As: the step on screen (the timeline's), not the live end of the run.
  files_.set_game_source(
      [this] { return sim_.active() ? std::optional<std::uint64_t>(sim_.shown_step()) : std::nullopt; },
      [this] { return sim_.saved_game_shown(); });
  if (const char* path = std::getenv("PATHSCOPE_UI_STATE"); path && *path) {
    ui_state_path_ = path;
    state_.probe.enable();
  }
  if (settings.left_column != 0) panels_.left_column = settings.left_column;
  if (settings.right_column != 0) panels_.right_column = settings.right_column;
  if (settings.open_panels) {
    panels_ = with_open_panels(panels_, *settings.open_panels);
    state_.show_comparison = panels_.comparison;  // its panel runs the comparison
  }
  if (find_layout_preset(settings.layout)) layout_ = settings.layout;
  // Long searches after an edit run in slices of this many milliseconds per frame, so the
  // window stays responsive on big maps; short ones still finish within the frame.
  debugger_.set_frame_budget_ms(12);
}

EditorApp::~EditorApp() = default;

void EditorApp::shutdown() { adapter_.release(); }

std::string EditorApp::open_initial(const std::string& path) {
  if (path.empty()) {
    // No file: the start page, over an empty map that any opened file replaces.
    state_.open_document(std::make_unique<Document>(make_empty_scenario(128, 96, 1)));
    start_page_ = true;
    start_serial_ = state_.doc_serial;
    if (const auto dir = find_shipped_maps_dir()) shipped_ = list_shipped_scenarios(*dir);
    fit_pending_ = true;
    return {};
  }
  const std::string& chosen = path;
  std::string failure;
  // load_path reports a failure as the newest message.
  if (!chosen.empty() && !files_.load_path(state_, chosen) && !state_.messages.empty())
    failure = state_.messages.back().text;
  if (!state_.doc) {
    state_.open_document(std::make_unique<Document>(make_empty_scenario(128, 96, 1)));
  }
  fit_pending_ = true;
  return failure;
}

void EditorApp::handle_event(const SDL_Event& e) {
  ++events_;
  input_frame_ = frames_ + 1;  // the next frame takes it
  switch (e.type) {
    case SDL_KEYDOWN: key_downs_ += e.key.repeat ? 0 : 1; break;
    case SDL_KEYUP: ++key_ups_; break;
    case SDL_MOUSEBUTTONDOWN: ++button_downs_; break;
    case SDL_MOUSEBUTTONUP: ++button_ups_; break;
    default: break;
  }
  switch (e.type) {
    case SDL_DROPFILE:
      if (e.drop.file) {
        files_.open_path(state_, e.drop.file);
        SDL_free(e.drop.file);
        fit_pending_ = true;
      }
      break;
    case SDL_QUIT: quit_now_ = files_.request_quit(state_); break;
    case SDL_WINDOWEVENT:
      if (e.window.event == SDL_WINDOWEVENT_CLOSE && e.window.windowID == SDL_GetWindowID(window_)) {
        quit_now_ = files_.request_quit(state_);
      }
      break;
    default: break;
  }
}

bool EditorApp::animating() const {
  return debugger_.playing() || debugger_.busy() || motion_.playing() || sim_.playing() ||
         files_.quit_confirmed() || (start_page_ && thumbnails_.size() < shipped_.size());
}

AppSettings EditorApp::settings() const {
  AppSettings s = files_.settings();
  ScreenRect client;
  SDL_GetWindowPosition(window_, &client.x, &client.y);
  SDL_GetWindowSize(window_, &client.w, &client.h);
  FrameExtents frame;
  // Fails (leaving 0s) with no window manager, where there is no frame.
  if (SDL_GetWindowBordersSize(window_, &frame.top, &frame.left, &frame.bottom, &frame.right) != 0)
    frame = {};
  remember_window(s, client, frame);
  s.window_maximized = (SDL_GetWindowFlags(window_) & SDL_WINDOW_MAXIMIZED) != 0;
  s.left_column = panels_.left_column;
  s.right_column = panels_.right_column;
  PanelLayout open = panels_;
  open.comparison = state_.show_comparison;
  s.open_panels = open_panel_names(open);
  s.layout = layout_;
  return s;
}

void EditorApp::choose_layout(const LayoutPreset& preset) {
  int width = 0, height = 0;
  SDL_GetWindowSize(window_, &width, &height);
  panels_ = arrange(preset, width, panels_);
  layout_ = std::string(preset.name);
  fit_pending_ = true;  // the canvas has another size: show the whole map in it
  state_.show_comparison = panels_.comparison;
  if (!preset.tool.empty()) select_tool(std::string(preset.tool));
}

Tool* EditorApp::active_tool() {
  auto it = tools_.find(state_.active_tool);
  if (it != tools_.end()) return it->second.get();
  const ToolInfo* info = find_tool(state_.active_tool);
  if (!info) return nullptr;
  return tools_.emplace(info->name, info->create()).first->second.get();
}

void EditorApp::select_tool(const std::string& name) {
  if (name == state_.active_tool) return;
  if (Tool* current = active_tool(); current && state_.doc) {
    ToolContext ctx{state_, *state_.doc, state_.camera.zoom(), &sim_};
    current->on_deactivate(ctx);
  }
  state_.active_tool = name;
}

void EditorApp::handle_shortcuts() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || !state_.doc || files_.dialog_open()) return;
  auto pressed = [](SDL_Scancode key) { return ImGui::IsKeyPressed(key, false); };
  files_.shortcuts(state_);  // Ctrl+N, Ctrl+O, Ctrl+S, Ctrl+Shift+S, Ctrl+Q
  Document& doc = *state_.doc;
  if (io.KeyCtrl) {
    layout_shortcuts();
    // Undo and redo stop the motion first, so its next step does not land on top.
    if (pressed(SDL_SCANCODE_Z) && !io.KeyShift) {
      motion_.pause(state_);
      doc.undo();
    }
    if (pressed(SDL_SCANCODE_Y) || (pressed(SDL_SCANCODE_Z) && io.KeyShift)) {
      motion_.pause(state_);
      doc.redo();
    }
    return;
  }
  if (io.WantCaptureKeyboard) return;
  if (pressed(SDL_SCANCODE_F) || pressed(SDL_SCANCODE_HOME)) fit_pending_ = true;
  if (pressed(SDL_SCANCODE_M)) {
    if (motion_.playing()) {
      motion_.pause(state_);
    } else {
      motion_.play(state_);
    }
  }
  debugger_shortcuts(debugger_, canvas_.hover_world());  // F5..F11
  // Tool shortcuts: the registry's letters.
  for (const ToolInfo& info : tool_registry()) {
    if (info.shortcut >= 'a' && info.shortcut <= 'z' &&
        pressed(static_cast<SDL_Scancode>(SDL_SCANCODE_A + (info.shortcut - 'a')))) {
      select_tool(info.name);
    }
  }
}

void EditorApp::layout_shortcuts() {
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.KeyCtrl || io.KeyShift || io.KeyAlt || io.WantTextInput) return;
  const auto presets = layout_presets();
  for (std::size_t i = 0; i < presets.size() && i < 9; ++i) {
    if (ImGui::IsKeyPressed(static_cast<SDL_Scancode>(SDL_SCANCODE_1 + i), false)) choose_layout(presets[i]);
  }
}

void EditorApp::update_title() {
  const Document& doc = *state_.doc;
  const std::string& name = doc.scenario().name;
  std::string title = doc.display_name() + (doc.modified() ? "*" : "");
  if (!name.empty()) title += " (" + name + ")";
  title += " - Pathscope";
  if (title != title_) {
    title_ = title;
    SDL_SetWindowTitle(window_, title_.c_str());
  }
}

void EditorApp::paint_scene_if_needed() {
  if (!debugger_.world()) return;
  char key[256];
  // While the simulation exists its units are drawn instead of the scenario's.
  const bool simulating = sim_.active();
  std::snprintf(key, sizeof key, "%llu/%llu/%zu/%llu/%d", (unsigned long long)state_.doc_serial,
                (unsigned long long)state_.doc->revision(), state_.active_query,
                (unsigned long long)state_.layers.bits(), int(simulating));
  if (key != map_key_) {
    map_key_ = key;
    map_below_.clear();
    map_above_.clear();
    render::LayerSet above = render::map_layers(state_.layers, true);
    if (simulating) above.set(render::Layer::Units, false);
    debugger_.paint_map(render::map_layers(state_.layers, false), map_below_);
    debugger_.paint_map(above, map_above_);
  }
  std::snprintf(key, sizeof key, "%d/%llu/%llu", int(simulating), (unsigned long long)sim_.version(),
                (unsigned long long)state_.layers.bits());
  if (key != sim_key_) {
    sim_key_ = key;
    sim_drawing_.clear();
    if (simulating) {
      // DetourCrowd's agents instead of our units, or as ghosts over them.
      const bool crowd = sim_.crowd_shown();
      const bool detour_only = crowd && sim_.crowd_mode() == SimPlayer::CrowdMode::Detour;
      if (!detour_only) render::paint_sim(sim_.scene(), state_.layers, sim_drawing_);
      if (crowd) {
        render::paint_crowd(sim_.crowd()->agents(), sim_.crowd()->scenario().sim.dt,
                            detour_only ? render::CrowdStyle::Alone : render::CrowdStyle::Ghosts,
                            state_.layers, sim_drawing_);
      }
    }
  }
  std::snprintf(key, sizeof key, "%s/%llu/%llu/%llu", map_key_.c_str(),
                (unsigned long long)debugger_.trace_version(), (unsigned long long)debugger_.step(),
                (unsigned long long)debugger_.results_version());
  if (key != search_key_) {
    search_key_ = key;
    search_.clear();
    debugger_.paint(state_.layers, search_);
  }
  // The planner comparison's paths, while its view is open.
  std::snprintf(key, sizeof key, "%d/%llu/%llu", int(state_.show_comparison),
                (unsigned long long)debugger_.comparison().version(),
                (unsigned long long)state_.layers.bits());
  if (key != compared_key_) {
    compared_key_ = key;
    compared_.clear();
    if (state_.show_comparison) debugger_.paint_comparison(state_.layers, compared_);
  }
  // The planner's structure, painted for a region around the view and kept while the
  // world, the planner's search, the layers and the picked node stay, and the view stays
  // inside that region at about the same zoom (StructureCache): stepping a search or
  // panning a little paints nothing.
  const bool structure = state_.layers.contains(render::Layer::PlannerCells) ||
                         state_.layers.contains(render::Layer::PlannerDetail) ||
                         state_.layers.contains(render::Layer::PlannerEdges) ||
                         state_.layers.contains(render::Layer::PlannerAux);
  const Box2 view = Box2::spanning(state_.camera.visible_min(), state_.camera.visible_max());
  // The breakpoint's node is the picked node: its links are drawn over the structure.
  const long long picked = debugger_.breakpoint() ? (long long)*debugger_.breakpoint() : -1;
  const StructureKey structure_key{state_.doc_serial, state_.doc->revision(),
                                   structure || picked >= 0 ? debugger_.trace_version() : 0,
                                   structure ? state_.layers.bits() : 0, picked};
  structure_.update(structure_key, structure || picked >= 0 ? view : Box2{},
                    [&](const Box2& region, render::DrawList& out) {
                      if (structure) debugger_.paint_structure(state_.layers, region, out);
                      if (picked >= 0) debugger_.paint_node_links(NodeId(picked), state_.layers, out);
                    });
}

void EditorApp::write_ui_state(const PointerTracker& pointer) {
  if (ui_state_path_.empty() || !state_.doc) return;
  const render::Camera& c = state_.camera;
  const Vec2 o = c.to_screen({0, 0});
  const WorldInfo& w = state_.doc->scenario().world;
  std::size_t errors = 0;
  for (const Message& m : state_.messages) errors += m.severity == Severity::Error ? 1 : 0;
  char text[1280];
  // First what a test waits on to know that the app has seen an action and drawn what
  // follows it: frames presented and the frame that took the latest SDL event; events
  // handled, key presses and releases, button presses and releases; keyboard focus (and
  // whether a text field takes the keys); the window's client area on the screen.
  int win_x = 0, win_y = 0, win_w = 0, win_h = 0;
  SDL_GetWindowPosition(window_, &win_x, &win_y);
  SDL_GetWindowSize(window_, &win_w, &win_h);
  const int focus = (SDL_GetWindowFlags(window_) & SDL_WINDOW_INPUT_FOCUS) != 0 ? 1 : 0;
  std::snprintf(
      text, sizeof text,
      "events %llu %llu %llu %llu %llu\nfocus %d %d\nwindow %d %d %d %d\n"
      "pointer %d %.0f %.0f\ncanvas %.0f %.0f %.0f %.0f\nworld %.9g %.9g\nworld_to_screen %.9g "
      "%.9g %.9g\nrevision %llu\n"
      "modified %d\ntool %s\nstep %llu %llu\nhover %d\npanning %d\nmessages %zu\nerrors "
      "%zu\npinned_error %d\n",
      (unsigned long long)events_, (unsigned long long)key_downs_, (unsigned long long)key_ups_,
      (unsigned long long)button_downs_, (unsigned long long)button_ups_, focus,
      int(ImGui::GetIO().WantTextInput), win_x, win_y, win_w, win_h, int(pointer.valid()),
      pointer.position().x, pointer.position().y, canvas_lo_.x, canvas_lo_.y, canvas_hi_.x, canvas_hi_.y,
      w.width, w.height, c.zoom(), o.x, o.y, (unsigned long long)state_.doc->revision(),
      int(state_.doc->modified()), state_.active_tool.c_str(), (unsigned long long)debugger_.step(),
      (unsigned long long)debugger_.total_steps(), int(canvas_.hover_world().has_value()),
      int(canvas_.panning()), state_.messages.size(), errors, int(state_.messages.pinned_error() != nullptr));
  std::string all = text;
  {
    // The planner comparison: rows, view open, selected row (-1: none), reasons shown.
    const PlannerComparison& cmp = debugger_.comparison();
    all += "comparison " + std::to_string(cmp.rows().size()) + " " +
           std::to_string(int(state_.show_comparison)) + " " +
           (cmp.selected() ? std::to_string(*cmp.selected()) : std::string("-1")) + " " +
           std::to_string(cmp.differences().size()) + "\n";
  }
  all += "motion " + std::to_string(int(motion_.playing())) + " " + std::to_string(motion_.steps()) + "\n";
  {
    // The active query's result: busy, status, cost, length, threat exposure (-1 when the
    // planner reports none), path points, trace version (grows with every new search).
    const PathResult* r = debugger_.result();
    double exposure = -1;
    if (r) {
      for (const auto& [name, value] : r->stats.extra) {
        if (name == "threat_exposure") exposure = value;
      }
    }
    char line[256];
    std::snprintf(line, sizeof line, "result %d %s %.9g %.9g %.9g %zu %llu\n", int(debugger_.busy()),
                  r ? to_string(r->status) : "none", r ? r->cost : 0.0, r ? r->length : 0.0, exposure,
                  r ? r->points.size() : std::size_t(0), (unsigned long long)debugger_.trace_version());
    all += line;
  }
  {
    // The active query's planner and its parameter values, in ParamSpec order.
    all +=
        "planner " + (debugger_.active_planner().empty() ? std::string("none") : debugger_.active_planner());
    for (const double v : debugger_.active_params()) {
      char value[32];
      std::snprintf(value, sizeof value, " %.9g", v);
      all += value;
    }
    all += "\n";
  }
  if (const sim::Simulation* s = sim_.simulation()) {
    // exists, playing, steps, units alive, arrived, ordered, selected, state hash
    char line[256];
    std::snprintf(line, sizeof line, "sim 1 %d %llu %zu %zu %zu %zu %016llx\n", int(sim_.playing()),
                  (unsigned long long)s->step_count(), s->unit_count(), s->arrived_count(),
                  s->ordered_count(), sim_.selected().size(), (unsigned long long)s->state_hash());
    all += line;
  } else {
    all += "sim 0 0 0 0 0 0 0 0\n";
  }
  {
    // DetourCrowd beside the simulation: mode (0 ours, 1 DetourCrowd, 2 both), a crowd run
    // exists, drawn, its steps, agents, agents more than 0.5 m from where they were
    // placed, at goal, ordered, overlapping pairs, tunnelled.
    char line[256];
    const CrowdRun* c = sim_.crowd();
    const CrowdGoals g = c ? c->goals() : CrowdGoals{};
    std::snprintf(line, sizeof line, "crowd %d %d %d %llu %zu %zu %zu %zu %llu %llu\n",
                  int(sim_.crowd_mode()), int(c != nullptr), int(sim_.crowd_shown()),
                  (unsigned long long)(c ? c->steps() : 0), c ? c->agents().size() : std::size_t(0),
                  c ? c->moved(0.5) : std::size_t(0), g.at_goal, g.ordered,
                  (unsigned long long)(c ? c->counts().hard_overlaps : 0),
                  (unsigned long long)(c ? c->counts().tunnelled : 0));
    all += line;
  }
  {
    // Platoons with a selected vehicle, then the first one's: group id, order state
    // (0 none, 1 waiting for its path, 2 driving, 3 failed), phase (0 idle .. 4 arrived),
    // formation shape (0 column .. 4 custom), ordered point, final heading in degrees
    // (nan: none), position.
    const std::vector<std::uint32_t> platoons = sim_.selected_platoons();
    const sim::PlatoonRun* p = platoons.empty() ? nullptr : sim_.platoon(platoons.front());
    char line[256];
    if (p) {
      std::snprintf(line, sizeof line, "platoon %zu %u %d %d %d %.3f %.3f %.3f %.3f %.3f\n", platoons.size(),
                    p->group, int(p->order), int(p->motion.phase), int(p->to.shape), p->goal.x, p->goal.y,
                    p->final_heading ? *p->final_heading * 180 / 3.14159265358979323846 : std::nan(""),
                    p->motion.position.x, p->motion.position.y);
    } else {
      std::snprintf(line, sizeof line, "platoon 0 0 0 0 0 0 0 nan 0 0\n");
    }
    all += line;
  }
  if (const sim::Recording* rec = sim_.recording(); rec && !rec->empty()) {
    // first and last recorded steps, step shown, viewing a recorded step, its hash as
    // recorded, decisions, stuck flags, selected
    char line[256];
    std::snprintf(line, sizeof line, "timeline 1 %llu %llu %llu %d %d %zu %zu %zu %016llx\n",
                  (unsigned long long)rec->first_step(), (unsigned long long)rec->last_step(),
                  (unsigned long long)sim_.shown_step(), int(sim_.viewing_recording()),
                  int(sim_.shown_verified()), rec->decisions().size(), rec->stuck().size(),
                  sim_.selected().size(), (unsigned long long)sim_.shown_hash());
    all += line;
  } else {
    all += "timeline 0 0 0 0 0 0 0 0 0 0\n";
  }
  {
    // Units stuck at the step shown, as the Simulation section and its stuck list count
    // them (-1: the step shown was not watched), and the stuck flags of the run.
    const auto stuck = sim_.stuck_shown();
    const sim::Recording* rec = sim_.recording();
    all += "stuck " + (stuck ? std::to_string(stuck->size()) : std::string("-1")) + " " +
           std::to_string(rec ? rec->stuck().size() : 0) + "\n";
  }
  {
    // The layout: the preset last chosen (none), the side columns' widths (negative:
    // collapsed), then the names of the open panels.
    PanelLayout open = panels_;
    open.comparison = state_.show_comparison;
    all += "layout " + (layout_.empty() ? std::string("none") : layout_) + " " +
           std::to_string(panels_.left_column) + " " + std::to_string(panels_.right_column);
    for (const std::string& name : open_panel_names(open)) all += " " + name;
    all += "\n";
  }
  // The start page: shown, recent files listed, shipped scenarios listed.
  all += "start_page " + std::to_string(int(start_page_)) + " " + std::to_string(files_.recent().size()) +
         " " + std::to_string(shipped_.size()) + "\n";
  {
    // The newest message, as the status bar shows it (one line).
    std::string text = state_.messages.empty() ? std::string("none") : display_text(state_.messages.back());
    std::replace(text.begin(), text.end(), '\n', ' ');
    all += "message " + text + "\n";
  }
  {
    // The scenario's simulation settings: continuous, prevention, cooperation, passages.
    const SimSettings& set = state_.doc->scenario().sim;
    all += "sim_settings " + std::to_string(int(set.continuous)) + " " + std::to_string(int(set.prevention)) +
           " " + std::to_string(int(set.cooperation)) + " " + std::to_string(int(set.passages)) + "\n";
  }
  for (const UiProbe::Item& item : state_.probe.items()) {
    char line[256];
    std::snprintf(line, sizeof line, "item %s %.0f %.0f %.0f %.0f\n", item.name.c_str(), item.x0, item.y0,
                  item.x1, item.y1);
    all += line;
  }
  // Creating and renaming a file costs a tenth of a millisecond and more: written when
  // anything but the frame number changed, and for the three frames after an input (the
  // last of them tells a test that what follows the input is on screen).
  if (all == ui_state_ && frames_ > input_frame_ + 2) return;
  ui_state_ = std::move(all);
  char frame_line[64];
  std::snprintf(frame_line, sizeof frame_line, "frame %llu %llu\n", (unsigned long long)frames_,
                (unsigned long long)input_frame_);
  // Written whole, then renamed, so a reader never sees half of it.
  const std::string tmp = ui_state_path_ + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << frame_line << ui_state_;
    if (!out) return;
  }
  std::rename(tmp.c_str(), ui_state_path_.c_str());
}

Status EditorApp::export_view(int width, int height, const std::filesystem::path& out) {
  render::Camera camera = state_.camera;
  const Vec2 size = camera.viewport_size();
  camera.set_viewport({0, 0}, {double(width), double(height)});
  camera.set_zoom(camera.zoom() * std::min(width / size.x, height / size.y));
  render::DrawList all = map_below_;
  all.append(structure_.list());
  all.append(search_);
  all.append(compared_);
  all.append(sim_drawing_);
  all.append(map_above_);
  all.append(overlay_);
  return export_png(all, camera, width, height, out);
}

void EditorApp::start_page_frame() {
  if (!ImGui::GetIO().WantTextInput && !files_.dialog_open()) {
    files_.shortcuts(state_);  // Ctrl+N, Ctrl+O, Ctrl+Q
    layout_shortcuts();
  }
  menu_bar();
  const ImGuiIO& io = ImGui::GetIO();
  // One picture painted per frame, so the page shows at once and fills in.
  if (thumbnails_.size() < shipped_.size()) {
    const ShippedScenario& next = shipped_[thumbnails_.size()];
    thumbnails_.push_back(next.readable ? paint_thumbnail(next.path) : std::nullopt);
  }
  const auto thumbnail = [this](std::size_t i, float x0, float y0, float x1, float y1) {
    if (i >= thumbnails_.size() || !thumbnails_[i]) return false;
    const Thumbnail& t = *thumbnails_[i];
    render::Camera camera;
    camera.set_viewport({x0, y0}, {x1 - x0, y1 - y0});
    camera.fit({0, 0}, {t.world_width, t.world_height}, 2);
    ImDrawList& out = *ImGui::GetWindowDrawList();
    out.AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), IM_COL32(24, 26, 30, 255));
    out.PushClipRect(ImVec2(x0, y0), ImVec2(x1, y1), true);
    adapter_.draw(t.drawing, camera, out);
    out.PopClipRect();
    return true;
  };
  const StartChoice choice = start_page_ui(0, menu_height_, io.DisplaySize.x, io.DisplaySize.y - menu_height_,
                                           files_.recent(), shipped_, thumbnail, state_.probe, start_cursor_);
  switch (choice.kind) {
    case StartChoice::Kind::NewMap: files_.request_new(state_); break;
    case StartChoice::Kind::Open: files_.request_open_dialog(state_); break;
    case StartChoice::Kind::Recent: files_.open_recent(state_, choice.path); break;
    case StartChoice::Kind::Shipped: files_.open_path(state_, choice.path); break;
    case StartChoice::Kind::None: break;
  }
  files_.dialogs(state_,
                 [this](int w, int h, const std::filesystem::path& p) { return export_view(w, h, p); });
  if (title_ != "Start - Pathscope") {
    title_ = "Start - Pathscope";
    SDL_SetWindowTitle(window_, title_.c_str());
  }
}

void EditorApp::frame(const PointerTracker& pointer) {
  const ImGuiIO& io = ImGui::GetIO();
  ++frames_;
  state_.probe.begin_frame();
  if (start_page_ && state_.doc_serial != start_serial_) start_page_ = false;
  if (start_page_) {
    start_page_frame();
    // A file opened this frame leaves the page at the next one; the canvas fits it then.
    if (state_.doc_serial != start_serial_) fit_pending_ = true;
    return;
  }
  handle_shortcuts();
  const std::uint64_t serial = state_.doc_serial;
  menu_bar();
  layout_columns();
  state_.camera.set_viewport(canvas_lo_, canvas_hi_ - canvas_lo_);
  if (fit_pending_ && state_.doc) {
    const WorldInfo& w = state_.doc->scenario().world;
    state_.camera.fit({0, 0}, {w.width, w.height}, 40);
    fit_pending_ = false;
  }
  left_column();
  right_column();
  timeline_strip();
  messages_strip();
  comparison_strip();
  files_.dialogs(state_,
                 [this](int w, int h, const std::filesystem::path& p) { return export_view(w, h, p); });
  if (state_.doc_serial != serial) fit_pending_ = true;

  // Canvas: input to the camera and the active tool, then re-plan if anything changed.
  // A breakpoint pick takes the click from the tool.
  const CanvasInput input = CanvasInput::from_frame(pointer, canvas_lo_, canvas_hi_);
  const bool pick = debugger_.breakpoint_pick_armed() && input.pressed[0] && input.over_canvas;
  canvas_.handle_input(state_, pick ? nullptr : active_tool(), input, &sim_);
  if (pick) {
    if (const auto hover = canvas_.hover_world())
      debugger_.pick_breakpoint(*hover, 6.0 / state_.camera.zoom());
  }
  motion_.update(state_, io.DeltaTime);
  if (state_.opened_recording) sim_.load_recording(std::exchange(state_.opened_recording, nullptr), state_);
  sim_.update(state_, io.DeltaTime);
  debugger_.sync(state_);
  debugger_.update(io.DeltaTime);
  if (auto hover = canvas_.hover_world(); hover && !canvas_.dragging() && !canvas_.panning()) {
    // A simulated unit under the pointer hides the planner's node there.
    if (!sim_hover_tooltip(sim_, *hover, 6.0 / state_.camera.zoom()))
      debugger_hover_tooltip(debugger_, *hover);
  }
  status_bar();
  update_title();

  paint_scene_if_needed();
  overlay_.clear();
  if (state_.show_grid_lines) Canvas::paint_grid_lines(state_.doc->scenario(), state_.camera, overlay_);
  if (Tool* tool = active_tool()) {
    ToolContext ctx{state_, *state_.doc, state_.camera.zoom(), &sim_};
    tool->draw_preview(ctx, overlay_);
  }
  // The map is drawn behind the panels, clipped to the canvas between them.
  ImDrawList& background = *ImGui::GetBackgroundDrawList();
  background.PushClipRect(ImVec2(float(canvas_lo_.x), float(canvas_lo_.y)),
                          ImVec2(float(canvas_hi_.x), float(canvas_hi_.y)));
  const render::DrawList* const lists[] = {&map_below_, &structure_.list(), &search_,
                                           &compared_,  &sim_drawing_,      &map_above_};
  for (const render::DrawList* list : lists) {
    if (list == &structure_.list()) {
      // Thousands of cells and links: rasterised once per painting (and zoom), then copied.
      adapter_.draw_kept("structure", *list, structure_.paints(), structure_.region(), state_.camera,
                         background);
    } else {
      adapter_.draw(*list, state_.camera, background);
    }
  }
  adapter_.draw(overlay_, state_.camera, background);
  background.PopClipRect();
}

}  // namespace pathscope::app
