// The window: SDL2 + SDL_Renderer + Dear ImGui (SDL2 platform backend, SDL_Renderer
// renderer backend). The scene is painted into a DrawList only when something changes
// and replayed each frame through the adapter; with no input the loop sleeps in
// SDL_WaitEventTimeout.

#include "app/platform/viewer.hpp"

#include "app/cli/cli_commands.hpp"
#include "app/editor/editor_app.hpp"
#include "app/platform/imgui_draw_adapter.hpp"
#include "app/platform/pointer_input.hpp"
#include "app/platform/settings.hpp"
#include "app/platform/window_placement.hpp"
#include "render/core/camera.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace pathscope::app {
namespace {

constexpr const char* kNoDisplay =
    "pathscope: cannot open a window (no display): use the headless commands: pathscope solve FILE, "
    "pathscope movingai PATH, pathscope convert IN OUT, pathscope render FILE --out PNG";

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v && *v;
}

// The window and its renderer, released in reverse order of creation.
struct Window {
  SDL_Window* window = nullptr;
  SDL_Renderer* renderer = nullptr;
  bool imgui = false;
  ~Window() {
    if (imgui) {
      ImGui_ImplSDLRenderer_Shutdown();
      ImGui_ImplSDL2_Shutdown();
      ImGui::DestroyContext();
    }
    if (renderer) SDL_DestroyRenderer(renderer);
    if (window) SDL_DestroyWindow(window);
    SDL_Quit();
  }
};

// High-DPI: draw in window points, let the renderer scale to its pixels.
void update_render_scale(const Window& w) {
  int ww = 0, wh = 0, pw = 0, ph = 0;
  SDL_GetWindowSize(w.window, &ww, &wh);
  if (SDL_GetRendererOutputSize(w.renderer, &pw, &ph) != 0 || ww <= 0 || wh <= 0) return;
  SDL_RenderSetScale(w.renderer, static_cast<float>(pw) / ww, static_cast<float>(ph) / wh);
}

}  // namespace

int run_viewer(const ViewerOptions& options) {
  // Without a display server SDL would fail later with a less helpful message.
  if (!env_set("SDL_VIDEODRIVER") && !env_set("DISPLAY") && !env_set("WAYLAND_DISPLAY")) {
    std::fprintf(stderr, "%s\n", kNoDisplay);
    return 1;
  }
  AppSettings settings = load_settings();

  SDL_SetHint(SDL_HINT_RENDER_VSYNC, "1");
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    std::fprintf(stderr, "%s\n(SDL: %s)\n", kNoDisplay, SDL_GetError());
    SDL_Quit();
    return 1;
  }
  SDL_EventState(SDL_DROPFILE, SDL_ENABLE);
  Window w;
  SDL_Rect usable{0, 0, 1400, 860};
  if (SDL_GetDisplayUsableBounds(0, &usable) != 0) SDL_GetDisplayBounds(0, &usable);
  const ScreenRect place = place_window(settings, {usable.x, usable.y, usable.w, usable.h});
  w.window = SDL_CreateWindow("Pathscope", place.x, place.y, place.w, place.h,
                              SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI |
                                  (settings.window_maximized ? SDL_WINDOW_MAXIMIZED : 0));
  if (!w.window) {
    std::fprintf(stderr, "%s\n(SDL: %s)\n", kNoDisplay, SDL_GetError());
    return 1;
  }
  w.renderer = SDL_CreateRenderer(w.window, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
  if (!w.renderer) w.renderer = SDL_CreateRenderer(w.window, -1, SDL_RENDERER_SOFTWARE);
  if (!w.renderer) {
    std::fprintf(stderr, "pathscope: cannot create a renderer: %s\n", SDL_GetError());
    return 1;
  }
  update_render_scale(w);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  const std::string ini = imgui_ini_path();
  ImGui::GetIO().IniFilename = ini.empty() ? nullptr : ini.c_str();  // window layout persists
  ImGui::StyleColorsDark();
  prepare_imgui_style_for_sdl_renderer();
  ImGui_ImplSDL2_InitForSDLRenderer(w.window);
  ImGui_ImplSDLRenderer_Init(w.renderer);
  w.imgui = true;

  EditorApp app(w.window, w.renderer, settings);
  // A file named on the command line that does not load (a scenario, a Moving AI map or
  // a recording) is reported here and in the window's message panel, which opens on a
  // new empty scenario.
  if (const std::string failure = app.open_initial(options.scenario_path);
      !failure.empty() && !options.scenario_path.empty()) {
    std::fprintf(stderr, "pathscope: %s\n", failure.c_str());
  }

  int frames = 0;
  int redraw = 2;  // ImGui needs a frame or two after input to settle hover states.
  PointerTracker pointer;
  // Returns true when the event ends this frame's batch (a button press or release).
  auto handle = [&](const SDL_Event& e) {
    ImGui_ImplSDL2_ProcessEvent(&e);
    if (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) update_render_scale(w);
    app.handle_event(e);
    return pointer.handle(e);
  };
  while (!app.quit_now()) {
    SDL_Event e;
    bool got = false;
    bool batch_done = false;
    pointer.begin_frame();
    if (redraw <= 0 && !app.animating() && options.quit_after_frames <= 0) {
      // Idle: sleep until something happens; a timeout means nothing changed.
      if (!SDL_WaitEventTimeout(&e, 500)) continue;
      batch_done = handle(e);
      got = true;
    }
    while (!batch_done && SDL_PollEvent(&e)) {
      batch_done = handle(e);
      got = true;
    }
    if (got) redraw = 3;
    // A search or an animation that ends during this frame still needs the frames that
    // show its end.
    if (app.animating()) redraw = std::max(redraw, 2);

    ImGui_ImplSDLRenderer_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    pointer.apply(ImGui::GetIO());  // the events' positions, not the polled global state
    ImGui::NewFrame();
    app.frame(pointer);
    ImGui::Render();
    SDL_SetRenderDrawColor(w.renderer, 24, 26, 30, 255);
    SDL_RenderClear(w.renderer);
    ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
    SDL_RenderPresent(w.renderer);
    app.write_ui_state(pointer);
    --redraw;
    if (options.quit_after_frames > 0 && ++frames >= options.quit_after_frames) break;
  }
  save_settings(app.settings());
  if (!ini.empty()) ImGui::SaveIniSettingsToDisk(ini.c_str());
  ImGui::GetIO().IniFilename = nullptr;  // `ini` dies before the context does
  app.shutdown();
  return 0;
}

}  // namespace pathscope::app
