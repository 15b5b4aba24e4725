#pragma once

// The editor: one document, the painting tools, the search debugger, the file actions
// and the panels around the map canvas. The window loop (viewer.cpp) feeds it SDL
// events and asks it for frames; everything it shows is rebuilt each frame from
// EditorState, the Document and the SearchDebugger.

#include <map>
#include <memory>
#include <string>

#include "app/debugger/debugger_panel.hpp"
#include "app/debugger/search_debugger.hpp"
#include "app/editor/canvas.hpp"
#include "app/editor/editor_state.hpp"
#include "app/editor/file_actions.hpp"
#include "app/editor/layout_preset.hpp"
#include "app/editor/motion_player.hpp"
#include "app/editor/start_page.hpp"
#include "app/editor/structure_cache.hpp"
#include "app/editor/tool.hpp"
#include "app/platform/imgui_draw_adapter.hpp"
#include "app/platform/settings.hpp"
#include "app/sim/sim_panel.hpp"
#include "app/sim/sim_player.hpp"
#include "app/sim/sim_timeline.hpp"
#include "render/core/draw_list.hpp"

union SDL_Event;
struct SDL_Window;
struct SDL_Renderer;

namespace pathscope::app {

class PointerTracker;

/// The whole editor behind one window.
class EditorApp {
 public:
  /// `window` and `renderer` must outlive the app.
  EditorApp(SDL_Window* window, SDL_Renderer* renderer, AppSettings settings);
  ~EditorApp();

  /// Opens `path` ("" = the start page, over an empty map); on failure reports it and
  /// opens an empty map. Returns the failure's message (naming the file and the field), "" on success:
  /// the command line prints it on the terminal too.
  std::string open_initial(const std::string& path);
  /// Window-level events ImGui does not act on: a dropped file, quit requests.
  void handle_event(const SDL_Event& event);
  /// One frame's UI and canvas; call between ImGui::NewFrame() and ImGui::Render().
  /// `pointer` holds the frame's pointer positions from SDL's events.
  void frame(const PointerTracker& pointer);
  /// Writes the UI state file ($PATHSCOPE_UI_STATE, if set) for the frame just presented;
  /// call after SDL_RenderPresent(), so that a test reading frame N knows it is on screen.
  void write_ui_state(const PointerTracker& pointer);
  /// Releases textures; call before the renderer is destroyed.
  void shutdown();

  /// The user asked to quit and nothing unsaved is in the way.
  bool quit_now() const { return quit_now_; }
  /// Frames must keep coming (a search animation plays).
  bool animating() const;
  /// Settings to persist (recent files, window geometry).
  AppSettings settings() const;

 private:
  Tool* active_tool();
  void select_tool(const std::string& name);
  void handle_shortcuts();
  /// Arranges the panels as `preset` says, for the window's present width.
  void choose_layout(const LayoutPreset& preset);
  /// Ctrl+1, Ctrl+2, Ctrl+3: the layout presets, in menu order.
  void layout_shortcuts();
  void update_title();
  void menu_bar();
  void layout_columns();
  void left_column();
  void right_column();
  void column_splitter(const char* id, float x, int& width, int direction);
  void motion_section();
  void simulation_section();
  void messages_strip();
  void comparison_strip();
  void timeline_strip();
  void status_bar();
  void paint_scene_if_needed();
  Status export_view(int width, int height, const std::filesystem::path& out);
  /// The start page's frame (menu bar, the page, the file dialogs) while it is shown.
  void start_page_frame();

  SDL_Window* window_;
  SDL_Renderer* renderer_;
  EditorState state_;
  SearchDebugger debugger_;
  FileActions files_;
  MotionPlayer motion_;
  SimPlayer sim_;
  TimelineEventCache timeline_events_;  // the timeline's ticked events, between frames
  UnitLogLayout unit_log_;              // the selected unit's log, wrapped, between frames
  Canvas canvas_;
  ImGuiDrawAdapter adapter_;
  std::map<std::string, std::unique_ptr<Tool>> tools_;
  // The map below and above the search, repainted when the document, the active query
  // or the layers change; the search, when its trace or step changes too; the planner's
  // structure (structure_), when the world, the planner's search or the picked node
  // change or the view leaves the region it was painted for. Drawn map below, structure,
  // search, map above, then overlay_.
  render::DrawList map_below_, search_, map_above_;
  StructureCache structure_;
  render::DrawList sim_drawing_;  // the unit simulation, between the search and the map above
  render::DrawList compared_;     // the planner comparison's paths, above the search
  render::DrawList overlay_;      // grid lines and tool previews, every frame
  std::string map_key_;           // what the map lists show
  std::string search_key_;        // what search_ shows
  std::string sim_key_;           // what sim_drawing_ shows
  std::string compared_key_;      // what compared_ shows
  std::string title_;
  // $PATHSCOPE_UI_STATE: a file where the window test reads what the user would see
  // (canvas, camera, document, debugger) and the frames and input counted, rewritten after
  // a frame presented when it changed or an input came shortly before; "" = none.
  std::string ui_state_path_;
  std::string ui_state_;  // what was written last, but the frame line
  // For the window tests, which wait on them instead of waiting a fixed time: frames
  // drawn, the frame that took the latest SDL event, SDL events handled, key presses (not
  // repeats) and releases, pointer button presses and releases.
  std::uint64_t frames_ = 0, input_frame_ = 0;
  std::uint64_t events_ = 0, key_downs_ = 0, key_ups_ = 0, button_downs_ = 0, button_ups_ = 0;
  bool quit_now_ = false;
  bool fit_pending_ = true;
  std::size_t messages_seen_ = 0;
  // The layout: side columns (negative width = collapsed) and, between them, the canvas
  // above the message strip; the panels open (its `comparison` is state_.show_comparison).
  // Recomputed each frame from the window size.
  PanelLayout panels_;
  std::string layout_;  // the preset last chosen, "" = none
  // The start page, shown until another document than the one under it is opened.
  bool start_page_ = false;
  StartPageCursor start_cursor_;  // the start page's keyboard selection
  std::uint64_t start_serial_ = 0;
  std::vector<ShippedScenario> shipped_;
  // Their pictures, painted one per frame while the page shows (nullopt: not loadable).
  std::vector<std::optional<Thumbnail>> thumbnails_;
  Vec2 canvas_lo_{0, 0}, canvas_hi_{0, 0};
  float menu_height_ = 0, status_height_ = 0, messages_height_ = 0, timeline_height_ = 0;
  float comparison_height_ = 0;  // the planner comparison's strip across the bottom, above the status bar
};

}  // namespace pathscope::app
