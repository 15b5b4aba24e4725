// `pathscope render`: the window's drawing path with no window. SDL's software renderer
// draws into a surface; Dear ImGui's SDL_Renderer backend renders the same draw data
// the window shows; the pixels are read back and written as PNG.

#include "app/render_command.hpp"

#include "app/imgui_draw_adapter.hpp"
#include "app/scene_session.hpp"
#include "render/draw_list.hpp"
#include "render/layer_set.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdlrenderer.h>
#include <stb_image_write.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace pathscope::app {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;

int fail(const std::string& message) {
  std::fprintf(stderr, "pathscope render: %s\n", message.c_str());
  return kExitFailed;
}

// SDL objects of one headless canvas, released in reverse order.
struct Canvas {
  SDL_Surface* surface = nullptr;
  SDL_Renderer* renderer = nullptr;
  ~Canvas() {
    if (renderer) SDL_DestroyRenderer(renderer);
    if (surface) SDL_FreeSurface(surface);
  }
};

// An ImGui context bound to a renderer for the lifetime of this object.
struct ImGuiScope {
  explicit ImGuiScope(SDL_Renderer* renderer, int width, int height) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // Headless runs leave no files behind.
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::StyleColorsDark();
    prepare_imgui_style_for_sdl_renderer();
    ImGui_ImplSDLRenderer_Init(renderer);
  }
  ~ImGuiScope() {
    ImGui_ImplSDLRenderer_Shutdown();
    ImGui::DestroyContext();
  }
  ImGuiScope(const ImGuiScope&) = delete;
  ImGuiScope& operator=(const ImGuiScope&) = delete;
};

void status_overlay(const SceneSession& session, long long step) {
  ImGui::SetNextWindowPos(ImVec2(8, 8));
  ImGui::SetNextWindowBgAlpha(0.65f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::Begin("##status", nullptr, flags)) {
    const Scenario& s = session.scenario();
    ImGui::TextUnformatted(s.name.empty() ? session.source().c_str() : s.name.c_str());
    if (session.query()) {
      const Query& q = s.queries[*session.query()];
      ImGui::Text("query %zu%s%s", *session.query(), q.name.empty() ? "" : ": ", q.name.c_str());
    }
    ImGui::TextUnformatted(session.status_line().c_str());
    if (step >= 0) {
      ImGui::Text("step %llu of %llu", static_cast<unsigned long long>(session.shown_expansions()),
                  static_cast<unsigned long long>(session.total_expansions()));
    }
  }
  ImGui::End();
}

}  // namespace

int run_render_command(const RenderOptions& options) {
  if (options.out_path.empty()) return fail("no output file (--out)");
  if (options.width <= 0 || options.height <= 0) return fail("the image size must be positive");
  Result<render::LayerSet> layers = render::LayerSet::parse(options.layers);
  if (!layers) return fail(layers.error().to_string());

  Result<std::unique_ptr<SceneSession>> opened = SceneSession::open(options.scenario_path);
  if (!opened) return fail(opened.error().to_string());
  SceneSession& session = **opened;
  const std::size_t query_count = session.scenario().queries.size();
  if (query_count > 0 || options.query != 0) {
    if (options.query < 0) return fail("--query " + std::to_string(options.query) + ": must be >= 0");
    const Status ran = session.run_query(static_cast<std::size_t>(options.query), options.planner);
    if (!ran) return fail(ran.error().to_string());
    if (options.step >= 0) session.show_step(static_cast<std::uint64_t>(options.step));
  }
  render::DrawList list;
  session.paint(*layers, list);

  // No display is ever needed: the dummy video driver always initialises.
  SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, "dummy", SDL_HINT_OVERRIDE);
  if (SDL_Init(SDL_INIT_VIDEO) != 0) return fail(std::string("SDL_Init: ") + SDL_GetError());
  int code = kExitOk;
  {
    Canvas canvas;
    canvas.surface =
        SDL_CreateRGBSurfaceWithFormat(0, options.width, options.height, 32, SDL_PIXELFORMAT_ARGB8888);
    if (canvas.surface) canvas.renderer = SDL_CreateSoftwareRenderer(canvas.surface);
    if (!canvas.renderer) {
      code = fail(std::string("cannot create a software renderer: ") + SDL_GetError());
    } else {
      ImGuiScope imgui(canvas.renderer, options.width, options.height);
      ImGuiDrawAdapter adapter(canvas.renderer);
      render::Camera camera = session.initial_camera({options.width, options.height});

      auto frame = [&] {
        ImGui_ImplSDLRenderer_NewFrame();
        ImGui::NewFrame();
        adapter.draw(list, camera, *ImGui::GetBackgroundDrawList());
        status_overlay(session, options.step);
        ImGui::Render();
        SDL_SetRenderDrawColor(canvas.renderer, 24, 26, 30, 255);
        SDL_RenderClear(canvas.renderer);
        ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
        SDL_RenderFlush(canvas.renderer);
      };
      // ImGui sizes auto-fitting windows on their first frame; that frame is not timed.
      frame();
      const int frames = std::max(1, options.frames);
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < frames; ++i) frame();
      const auto t1 = std::chrono::steady_clock::now();
      if (options.frames > 1) {
        const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / frames;
        std::printf("%d frames, mean %.2f ms/frame\n", frames, ms);
      }

      std::vector<unsigned char> pixels(static_cast<std::size_t>(options.width) * options.height * 4);
      if (SDL_RenderReadPixels(canvas.renderer, nullptr, SDL_PIXELFORMAT_RGBA32, pixels.data(),
                               options.width * 4) != 0) {
        code = fail(std::string("cannot read the pixels back: ") + SDL_GetError());
      } else if (!stbi_write_png(options.out_path.c_str(), options.width, options.height, 4, pixels.data(),
                                 options.width * 4)) {
        code = fail("cannot write " + options.out_path);
      }
      adapter.release();
    }
  }
  SDL_Quit();
  return code;
}

}  // namespace pathscope::app
