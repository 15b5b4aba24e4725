#include "app/editor/start_page.hpp"

#include "app/editor/ui_probe.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/world/planning_world.hpp"
#include "render/core/layer_set.hpp"
#include "render/map/scene_painter.hpp"

#include <imgui.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <system_error>
#include <utility>

namespace pathscope::app {
namespace {

namespace fs = std::filesystem;

// Scenario files are small; a larger file is not read for its name.
constexpr std::uintmax_t kMaxListedBytes = 64u << 20;

ShippedScenario describe(const fs::path& file) {
  ShippedScenario s;
  s.path = file;
  s.name = file.stem().string();
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(file, ec);
  if (ec || size > kMaxListedBytes) {
    s.readable = false;
    s.description = file.string() + ": too large or unreadable";
    return s;
  }
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    s.readable = false;
    s.description = file.string() + ": not a JSON object";
    return s;
  }
  if (auto it = doc.find("format"); it == doc.end() || *it != "pathscope-scenario") {
    s.readable = false;
    s.description = file.string() + ": format: expected \"pathscope-scenario\"";
    return s;
  }
  if (auto it = doc.find("name"); it != doc.end() && it->is_string() && !it->get<std::string>().empty())
    s.name = it->get<std::string>();
  if (auto it = doc.find("description"); it != doc.end() && it->is_string())
    s.description = it->get<std::string>();
  return s;
}

// A section's title over a line (ImGui 1.86 has no SeparatorText).
void heading(const char* text) {
  ImGui::TextUnformatted(text);
  ImGui::Separator();
}

}  // namespace

std::optional<fs::path> find_shipped_maps_dir() {
  std::error_code ec;
  if (fs::is_directory("maps", ec)) return fs::path("maps");
#ifdef PATHSCOPE_SOURCE_DIR
  const fs::path in_source = fs::path(PATHSCOPE_SOURCE_DIR) / "maps";
  if (fs::is_directory(in_source, ec)) return in_source;
#endif
  return std::nullopt;
}

std::optional<Thumbnail> paint_thumbnail(const fs::path& path) {
  Result<Scenario> loaded = load_scenario(path);
  if (!loaded.ok()) return std::nullopt;
  Thumbnail t;
  t.world_width = loaded.value().world.width;
  t.world_height = loaded.value().world.height;
  const PlanningWorld world(std::move(loaded.value()));
  render::LayerSet layers;
  for (const render::Layer l :
       {render::Layer::Tiles, render::Layer::Regions, render::Layer::Features, render::Layer::Roads,
        render::Layer::Bridges, render::Layer::Influences, render::Layer::Units}) {
    layers.set(l);
  }
  render::DrawList painted;
  render::paint_world(world, 0, layers, painted);
  // The window's adapter caches one texture per image key: the map on the canvas has
  // "tiles" too, so each thumbnail's images get keys of their own.
  const std::string prefix = "start/" + path.stem().string() + "/";
  for (const render::Layer l : render::all_layers()) {
    for (render::Primitive p : painted.layer(l)) {
      if (auto* image = std::get_if<render::ImagePrim>(&p.shape)) image->key = prefix + image->key;
      t.drawing.add(std::move(p));
    }
  }
  return t;
}

std::vector<ShippedScenario> list_shipped_scenarios(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".json") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  std::vector<ShippedScenario> out;
  out.reserve(files.size());
  for (const fs::path& f : files) out.push_back(describe(f));
  return out;
}

StartPageCursor move_start_cursor(StartPageCursor cursor, StartKey key, std::size_t count, std::size_t page) {
  if (count == 0) return cursor;
  page = std::max<std::size_t>(page, 1);
  const std::size_t last = count - 1;
  const std::optional<std::size_t> at =
      cursor.selected ? std::optional(std::min(*cursor.selected, last)) : std::nullopt;
  std::size_t to = 0;
  switch (key) {
    case StartKey::Up: to = at ? (*at > 0 ? *at - 1 : 0) : 0; break;
    case StartKey::Down: to = at ? std::min(*at + 1, last) : 0; break;
    case StartKey::PageUp: to = at ? (*at > page ? *at - page : 0) : 0; break;
    case StartKey::PageDown: to = at ? std::min(*at + page, last) : 0; break;
    case StartKey::Home: to = 0; break;
    case StartKey::End: to = last; break;
  }
  return StartPageCursor{to, true};
}

StartChoice start_page_ui(float x, float y, float width, float height, const std::vector<std::string>& recent,
                          const std::vector<ShippedScenario>& shipped, const ThumbnailDrawer& thumbnail,
                          UiProbe& probe, StartPageCursor& cursor) {
  StartChoice choice;
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(width, height));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(24, 18));
  if (ImGui::Begin("##start_page", nullptr, flags)) {
    // The mouse over the page itself (its title, the margins), not over one of its lists.
    const bool over_page = ImGui::IsWindowHovered();
    ImGui::SetWindowFontScale(1.6f);
    ImGui::TextUnformatted("Pathscope");
    ImGui::SetWindowFontScale(1.0f);
    ImGui::TextDisabled("Path planning, its search step by step, and units that follow the paths.");
    ImGui::Spacing();
    // Left: start something; right: the shipped scenarios.
    const float left = std::clamp(width * 0.32f, 240.0f, 420.0f);
    if (ImGui::BeginChild("##start_left", ImVec2(left, 0))) {
      if (ImGui::Button("New map...", ImVec2(-1, 0))) choice.kind = StartChoice::Kind::NewMap;
      probe.last_item("start_new");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("An empty map of the size you choose (Ctrl+N)");
      if (ImGui::Button("Open...", ImVec2(-1, 0))) choice.kind = StartChoice::Kind::Open;
      probe.last_item("start_open");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("A scenario, a Moving AI map or a recording (Ctrl+O)");
      ImGui::Spacing();
      heading("Recent files");
      if (recent.empty()) ImGui::TextDisabled("None yet: files you open are listed here.");
      for (std::size_t i = 0; i < recent.size(); ++i) {
        const fs::path p(recent[i]);
        ImGui::PushID(int(i));
        if (ImGui::Selectable(p.filename().string().c_str())) {
          choice = {StartChoice::Kind::Recent, recent[i]};
        }
        const std::string id = "start_recent_" + std::to_string(i);
        probe.last_item(id.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", recent[i].c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("%s", p.parent_path().string().c_str());
        ImGui::PopID();
      }
    }
    ImGui::EndChild();
    ImGui::SameLine(0, 24);
    if (ImGui::BeginChild("##start_maps", ImVec2(0, 0))) {
      heading("Scenarios shipped with Pathscope (maps/)");
      if (shipped.empty()) ImGui::TextDisabled("No maps/ folder found next to the working directory.");
      // One row per scenario: its picture, then its name, file and description.
      constexpr float kThumbWidth = 128, kThumbHeight = 96;
      // The keyboard moves the selection over the list (no text field is on the page);
      // the mouse wheel over the page scrolls the list even outside it.
      const ImGuiIO& io = ImGui::GetIO();
      const std::size_t page = std::size_t(std::max(1.0f, ImGui::GetWindowHeight() / (kThumbHeight + 8)));
      if (!io.WantTextInput && !io.KeyCtrl && !shipped.empty()) {
        const std::pair<ImGuiKey, StartKey> keys[] = {
            {ImGuiKey_UpArrow, StartKey::Up},    {ImGuiKey_DownArrow, StartKey::Down},
            {ImGuiKey_PageUp, StartKey::PageUp}, {ImGuiKey_PageDown, StartKey::PageDown},
            {ImGuiKey_Home, StartKey::Home},     {ImGuiKey_End, StartKey::End}};
        for (const auto& [imgui_key, key] : keys) {
          if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(imgui_key))) {
            cursor = move_start_cursor(cursor, key, shipped.size(), page);
          }
        }
        if (cursor.selected && *cursor.selected < shipped.size() && shipped[*cursor.selected].readable &&
            (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) ||
             ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter)))) {
          choice = {StartChoice::Kind::Shipped, shipped[*cursor.selected].path.string()};
        }
      }
      if (io.MouseWheel != 0 && over_page) {
        ImGui::SetScrollY(ImGui::GetScrollY() - io.MouseWheel * 5 * ImGui::GetTextLineHeightWithSpacing());
      }
      const ImGuiTableFlags table =
          ImGuiTableFlags_RowBg | ImGuiTableFlags_PadOuterX | ImGuiTableFlags_NoSavedSettings;
      if (!shipped.empty() && ImGui::BeginTable("##shipped", 2, table)) {
        ImGui::TableSetupColumn("picture", ImGuiTableColumnFlags_WidthFixed, kThumbWidth);
        ImGui::TableSetupColumn("scenario", ImGuiTableColumnFlags_WidthStretch);
        for (std::size_t i = 0; i < shipped.size(); ++i) {
          const ShippedScenario& s = shipped[i];
          ImGui::PushID(int(i));
          ImGui::TableNextRow();
          ImGui::TableSetColumnIndex(0);
          const ImVec2 at = ImGui::GetCursorScreenPos();
          ImGui::Dummy(ImVec2(kThumbWidth, kThumbHeight));
          if (ImGui::IsItemVisible() &&
              !(thumbnail && thumbnail(i, at.x, at.y, at.x + kThumbWidth, at.y + kThumbHeight))) {
            ImGui::GetWindowDrawList()->AddRect(at, ImVec2(at.x + kThumbWidth, at.y + kThumbHeight),
                                                ImGui::GetColorU32(ImGuiCol_Border));
          }
          ImGui::TableSetColumnIndex(1);
          ImGui::BeginDisabled(!s.readable);
          const std::string label = s.name + "##pick";
          const bool selected = cursor.selected == i;
          if (ImGui::Selectable(label.c_str(), selected))
            choice = {StartChoice::Kind::Shipped, s.path.string()};
          if (selected && cursor.scroll_to) {
            // The selected row in the middle of the list's view.
            ImGui::SetScrollHereY(0.5f);
            cursor.scroll_to = false;
          }
          ImGui::EndDisabled();
          const std::string id = "start_map_" + s.path.stem().string();
          probe.last_item(id.c_str());
          ImGui::TextDisabled("%s", s.path.filename().string().c_str());
          if (!s.description.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            ImGui::TextWrapped("%s", s.description.c_str());
            ImGui::PopStyleColor();
          }
          ImGui::PopID();
        }
        ImGui::EndTable();
      }
    }
    ImGui::EndChild();
  }
  ImGui::End();
  ImGui::PopStyleVar();
  return choice;
}

}  // namespace pathscope::app
