// Offscreen drawing: the window's drawing path with no window. SDL's software renderer
// draws into a surface; Dear ImGui's SDL_Renderer backend renders the same draw data
// the window shows; the pixels are read back and written as PNG with stb_image_write.
//
// The canvas owns a second ImGui context so that an export from inside a window frame
// leaves the window's context (its frame in progress, fonts, windows) untouched.

#include "app/platform/png_export.hpp"

#include "app/platform/imgui_draw_adapter.hpp"
#include "planner/core/atomic_write.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdlrenderer.h>
#include <stb_image_write.h>

#include <algorithm>
#include <string>

namespace pathscope::app {
namespace {

// The window's clear colour, so exported pictures look like the screen.
constexpr Uint8 kBackground[3] = {24, 26, 30};

// Makes `context` current for the lifetime of this object, then restores the previous one.
class ContextSwitch {
 public:
  explicit ContextSwitch(ImGuiContext* context) : previous_(ImGui::GetCurrentContext()) {
    ImGui::SetCurrentContext(context);
  }
  ~ContextSwitch() { ImGui::SetCurrentContext(previous_); }
  ContextSwitch(const ContextSwitch&) = delete;
  ContextSwitch& operator=(const ContextSwitch&) = delete;

 private:
  ImGuiContext* previous_;
};

Error export_error(ErrorCode code, const std::string& message) { return make_error(code, "export", message); }

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::string*>(context);
  out->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
}

}  // namespace

Result<std::unique_ptr<OffscreenCanvas>> OffscreenCanvas::create(int width, int height) {
  if (width < 1 || height < 1 || width > kMaxExportSide || height > kMaxExportSide) {
    return export_error(ErrorCode::Limit, "image size " + std::to_string(width) + " x " +
                                              std::to_string(height) + ": each side must be 1.." +
                                              std::to_string(kMaxExportSide) + " pixels");
  }
  // A software renderer on a surface needs no video subsystem, so no display either.
  auto canvas = std::make_unique<OffscreenCanvas>(Key{});
  canvas->width_ = width;
  canvas->height_ = height;
  canvas->surface_ = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, SDL_PIXELFORMAT_ARGB8888);
  if (!canvas->surface_) {
    return export_error(ErrorCode::Io, std::string("cannot allocate the image: ") + SDL_GetError());
  }
  canvas->renderer_ = SDL_CreateSoftwareRenderer(canvas->surface_);
  if (!canvas->renderer_) {
    return export_error(ErrorCode::Io, std::string("cannot create a software renderer: ") + SDL_GetError());
  }
  ImGuiContext* previous = ImGui::GetCurrentContext();
  canvas->context_ = ImGui::CreateContext();
  {
    ContextSwitch use(canvas->context_);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // Offscreen frames leave no files behind.
    io.LogFilename = nullptr;
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::StyleColorsDark();
    prepare_imgui_style_for_sdl_renderer();
    canvas->backend_ = ImGui_ImplSDLRenderer_Init(canvas->renderer_);
  }
  // CreateContext makes the new context current when there was none; undo that too.
  ImGui::SetCurrentContext(previous);
  if (!canvas->backend_) return export_error(ErrorCode::Io, "cannot initialise ImGui's SDL_Renderer backend");
  canvas->adapter_ = std::make_unique<ImGuiDrawAdapter>(canvas->renderer_);
  return canvas;
}

OffscreenCanvas::OffscreenCanvas(Key) {}

OffscreenCanvas::~OffscreenCanvas() {
  if (adapter_) adapter_->release();
  adapter_.reset();
  if (context_) {
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(context_);
    if (backend_) ImGui_ImplSDLRenderer_Shutdown();
    ImGui::DestroyContext(context_);
    ImGui::SetCurrentContext(previous == context_ ? nullptr : previous);
  }
  if (renderer_) SDL_DestroyRenderer(renderer_);
  if (surface_) SDL_FreeSurface(surface_);
}

void OffscreenCanvas::draw_frame(const render::DrawList& list, const render::Camera& camera,
                                 const std::function<void()>& overlay) {
  const render::DrawList* lists[] = {&list};
  draw_frame(lists, camera, overlay);
}

void OffscreenCanvas::draw_frame(std::span<const render::DrawList* const> lists, const render::Camera& camera,
                                 const std::function<void()>& overlay, const KeptList& kept) {
  ContextSwitch use(context_);
  render::Camera cam = camera;
  cam.set_viewport({0, 0}, {width_, height_});
  ImGui_ImplSDLRenderer_NewFrame();
  ImGui::NewFrame();
  for (const render::DrawList* list : lists) {
    if (!list) continue;
    if (list == kept.list) {
      adapter_->draw_kept("kept", *list, kept.version, kept.region, cam, *ImGui::GetBackgroundDrawList());
    } else {
      adapter_->draw(*list, cam, *ImGui::GetBackgroundDrawList());
    }
  }
  if (overlay) overlay();
  ImGui::Render();
  SDL_SetRenderDrawColor(renderer_, kBackground[0], kBackground[1], kBackground[2], 255);
  SDL_RenderClear(renderer_);
  ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
  SDL_RenderFlush(renderer_);
}

const ImGuiDrawAdapter& OffscreenCanvas::adapter() const { return *adapter_; }

Result<RgbaImage> OffscreenCanvas::read_pixels() const {
  RgbaImage image;
  image.width = width_;
  image.height = height_;
  image.pixels.resize(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_) * 4);
  if (SDL_RenderReadPixels(renderer_, nullptr, SDL_PIXELFORMAT_RGBA32, image.pixels.data(), width_ * 4) !=
      0) {
    return export_error(ErrorCode::Io, std::string("cannot read the pixels back: ") + SDL_GetError());
  }
  return image;
}

Status OffscreenCanvas::write_png(const std::filesystem::path& out) const {
  Result<RgbaImage> image = read_pixels();
  if (!image) return image.error();
  return write_png_file(*image, out);
}

Status write_png_file(const RgbaImage& image, const std::filesystem::path& out) {
  const std::string where = out.string();
  if (image.width < 1 || image.height < 1 ||
      image.pixels.size() !=
          static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4) {
    return make_error(ErrorCode::Value, where, "no image to write");
  }
  std::string bytes;
  if (!stbi_write_png_to_func(append_bytes, &bytes, image.width, image.height, 4, image.pixels.data(),
                              image.width * 4)) {
    return make_error(ErrorCode::Io, where, "cannot encode the PNG");
  }
  // Atomic: a failed export never leaves a truncated picture behind.
  return write_file_atomically(out, bytes);
}

Status export_png(const render::DrawList& list, const render::Camera& camera, int width, int height,
                  const std::filesystem::path& out) {
  Result<std::unique_ptr<OffscreenCanvas>> canvas = OffscreenCanvas::create(width, height);
  if (!canvas) return canvas.error();
  (*canvas)->draw_frame(list, camera);
  return (*canvas)->write_png(out);
}

render::Camera export_camera(const render::Camera& view, int width, int height) {
  const Vec2 size = view.viewport_size();
  const double sx = static_cast<double>(std::max(width, 1)) / std::max(size.x, 1.0);
  const double sy = static_cast<double>(std::max(height, 1)) / std::max(size.y, 1.0);
  render::Camera cam(view.center(), view.zoom() * std::min(sx, sy));
  cam.set_viewport({0, 0}, {width, height});
  return cam;
}

}  // namespace pathscope::app
