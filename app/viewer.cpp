// The window: SDL2 + SDL_Renderer + Dear ImGui (SDL2 platform backend, SDL_Renderer
// renderer backend). The scene is painted into a DrawList only when something changes
// and replayed each frame through the adapter; with no input the loop sleeps in
// SDL_WaitEventTimeout.

#include "app/viewer.hpp"

#include "app/imgui_draw_adapter.hpp"
#include "app/scene_session.hpp"
#include "app/viewer_panel.hpp"
#include "render/camera.hpp"
#include "render/draw_list.hpp"
#include "render/layer_set.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>

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

// Everything the loop changes from frame to frame.
struct ViewerModel {
  std::unique_ptr<SceneSession> session;
  render::LayerSet layers = render::LayerSet::defaults();
  render::DrawList list;
  render::Camera camera;
  std::string planner_override;
  std::string error;
  bool dirty = true;  // The draw list must be painted again.

  void run(std::size_t query) {
    const Status st = session->run_query(query, planner_override);
    error = st ? std::string() : st.error().to_string();
    dirty = true;
  }
};

}  // namespace

int run_viewer(const ViewerOptions& options) {
  // Without a display server SDL would fail later with a less helpful message.
  if (!env_set("SDL_VIDEODRIVER") && !env_set("DISPLAY") && !env_set("WAYLAND_DISPLAY")) {
    std::fprintf(stderr, "%s\n", kNoDisplay);
    return 1;
  }
  ViewerModel model;
  {
    Result<std::unique_ptr<SceneSession>> opened = SceneSession::open(options.scenario_path);
    if (!opened) {
      std::fprintf(stderr, "pathscope: %s\n", opened.error().to_string().c_str());
      return 1;
    }
    model.session = std::move(opened).value();
  }
  const Scenario& scenario = model.session->scenario();
  if (!scenario.viewer.layers.empty()) {
    Result<render::LayerSet> hinted = render::LayerSet::parse(scenario.viewer.layers);
    if (hinted) {
      model.layers = *hinted;
    } else {
      std::fprintf(stderr, "pathscope: viewer.%s (using the default layers)\n",
                   hinted.error().to_string().c_str());
    }
  }
  if (!scenario.queries.empty()) model.run(0);

  SDL_SetHint(SDL_HINT_RENDER_VSYNC, "1");
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    std::fprintf(stderr, "%s\n(SDL: %s)\n", kNoDisplay, SDL_GetError());
    SDL_Quit();
    return 1;
  }
  Window w;
  const std::string title =
      "Pathscope - " + (scenario.name.empty() ? model.session->source() : scenario.name);
  w.window = SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 1280, 800,
                              SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
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
  ImGui::GetIO().IniFilename = nullptr;  // No imgui.ini next to whatever the cwd is.
  ImGui::StyleColorsDark();
  prepare_imgui_style_for_sdl_renderer();
  ImGui_ImplSDL2_InitForSDLRenderer(w.window);
  ImGui_ImplSDLRenderer_Init(w.renderer);
  w.imgui = true;

  ImGuiDrawAdapter adapter(w.renderer);
  int win_w = 0, win_h = 0;
  SDL_GetWindowSize(w.window, &win_w, &win_h);
  model.camera = model.session->initial_camera({win_w, win_h});

  bool running = true;
  int frames = 0;
  int redraw = 2;  // ImGui needs a frame or two after input to settle hover states.
  auto handle = [&](const SDL_Event& e) {
    ImGui_ImplSDL2_ProcessEvent(&e);
    const ImGuiIO& io = ImGui::GetIO();
    switch (e.type) {
      case SDL_QUIT: running = false; break;
      case SDL_WINDOWEVENT:
        if (e.window.event == SDL_WINDOWEVENT_CLOSE && e.window.windowID == SDL_GetWindowID(w.window))
          running = false;
        if (e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) update_render_scale(w);
        break;
      case SDL_MOUSEWHEEL:
        if (!io.WantCaptureMouse) {
          int mx = 0, my = 0;
          SDL_GetMouseState(&mx, &my);
          model.camera.zoom_at({mx, my}, std::pow(1.2, static_cast<double>(e.wheel.preciseY)));
        }
        break;
      case SDL_MOUSEMOTION:
        if (!io.WantCaptureMouse && (e.motion.state & (SDL_BUTTON_RMASK | SDL_BUTTON_MMASK))) {
          model.camera.pan_pixels({e.motion.xrel, e.motion.yrel});
        }
        break;
      case SDL_KEYDOWN:
        if (!io.WantCaptureKeyboard && (e.key.keysym.sym == SDLK_f || e.key.keysym.sym == SDLK_HOME)) {
          model.session->fit(model.camera);
        }
        break;
      default: break;
    }
  };

  while (running) {
    SDL_Event e;
    bool got = false;
    if (redraw <= 0 && options.quit_after_frames <= 0) {
      // Idle: sleep until something happens; a timeout means nothing changed.
      if (!SDL_WaitEventTimeout(&e, 500)) continue;
      handle(e);
      got = true;
    }
    while (SDL_PollEvent(&e)) {
      handle(e);
      got = true;
    }
    if (got) redraw = 3;
    if (!running) break;

    ImGui_ImplSDLRenderer_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
    const ImGuiIO& io = ImGui::GetIO();
    model.camera.set_viewport({0, 0}, {io.DisplaySize.x, io.DisplaySize.y});

    PanelView view;
    view.session = model.session.get();
    view.planner_override = model.planner_override;
    view.error = model.error;
    view.hover_world = model.camera.to_world({io.MousePos.x, io.MousePos.y});
    view.hover_valid = !io.WantCaptureMouse && ImGui::IsMousePosValid();
    view.zoom = model.camera.zoom();
    const PanelRequest req = viewer_panel(view, model.layers);
    if (req.planner) {
      model.planner_override = *req.planner;
      if (model.session->query()) model.run(*model.session->query());
    }
    if (req.query) model.run(*req.query);
    if (req.step) {
      model.session->show_step(*req.step);
      model.dirty = true;
    }
    if (req.layers_changed) model.dirty = true;
    if (req.fit) model.session->fit(model.camera);

    if (model.dirty) {
      model.list.clear();
      model.session->paint(model.layers, model.list);
      model.dirty = false;
    }
    adapter.draw(model.list, model.camera, *ImGui::GetBackgroundDrawList());

    ImGui::Render();
    SDL_SetRenderDrawColor(w.renderer, 24, 26, 30, 255);
    SDL_RenderClear(w.renderer);
    ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
    SDL_RenderPresent(w.renderer);
    --redraw;
    if (options.quit_after_frames > 0 && ++frames >= options.quit_after_frames) running = false;
  }
  adapter.release();
  return 0;
}

}  // namespace pathscope::app
