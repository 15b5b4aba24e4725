#include "app/editor/file_browser.hpp"
#include "app/editor/tools/tool_widgets.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <system_error>
#include <utility>

namespace pathscope::app {

namespace fs = std::filesystem;

// [SECTION] Folder listing -------------------------------------------------------------

std::string lower_extension(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

Result<std::vector<DirEntry>> list_directory(const fs::path& dir, std::span<const std::string> extensions) {
  std::vector<DirEntry> dirs, files;
  std::error_code ec;
  fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) return make_error(ErrorCode::Io, dir.string(), "cannot list the folder: " + ec.message());
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) return make_error(ErrorCode::Io, dir.string(), "cannot list the folder: " + ec.message());
    const fs::path& p = it->path();
    std::string name = p.filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code type_ec;
    if (it->is_directory(type_ec)) {
      dirs.push_back({std::move(name), true});
      continue;
    }
    if (!it->is_regular_file(type_ec)) continue;
    const std::string ext = lower_extension(p);
    if (std::find(extensions.begin(), extensions.end(), ext) != extensions.end())
      files.push_back({std::move(name), false});
  }
  auto by_name = [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; };
  std::sort(dirs.begin(), dirs.end(), by_name);
  std::sort(files.begin(), files.end(), by_name);
  dirs.insert(dirs.end(), files.begin(), files.end());
  return dirs;
}

// [SECTION] Dialog helpers -------------------------------------------------------------

void center_next_window(float width, float height) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  if (width > 0) {
    width = std::min(width, std::max(io.DisplaySize.x - 40, 200.0f));
    height = std::min(height, std::max(io.DisplaySize.y - 40, 150.0f));
    ImGui::SetNextWindowSize(ImVec2(width, height), ImGuiCond_Appearing);
  }
}

bool escape_pressed() { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false); }

void error_text(const std::string& error) {
  if (error.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, tools::kErrorColor);
  ImGui::TextWrapped("%s", error.c_str());
  ImGui::PopStyleColor();
}

// [SECTION] Browser --------------------------------------------------------------------

void FileBrowser::open(FileBrowserMode mode, const fs::path& dir, const std::string& name) {
  const int serial = serial_ + 1;
  *this = FileBrowser{};
  mode_ = std::move(mode);
  serial_ = serial;
  path_text_ = name;
  navigate(dir);
}

void FileBrowser::refresh() {
  Result<std::vector<DirEntry>> listed = list_directory(dir_, mode_.extensions);
  selected_ = -1;
  if (listed) {
    entries_ = std::move(listed).value();
    error_.clear();
  } else {
    entries_.clear();
    error_ = listed.error().to_string();
  }
}

void FileBrowser::navigate(const fs::path& dir) {
  std::error_code ec;
  fs::path next = fs::weakly_canonical(dir, ec);
  dir_ = ec ? dir.lexically_normal() : next;
  if (mode_.saving) {
    const fs::path name = fs::path(path_text_).filename();
    path_text_ = (dir_ / name).string();
  } else {
    path_text_ = dir_.string();
    if (!path_text_.empty() && path_text_.back() != '/') path_text_ += '/';
  }
  confirm_overwrite_.clear();
  refresh();
}

// Choosing what the text field names: folders are entered, files chosen.
std::optional<fs::path> FileBrowser::submit() {
  fs::path p = path_text_;
  if (p.empty()) return std::nullopt;
  if (p.is_relative()) p = dir_ / p;
  p = p.lexically_normal();
  std::error_code ec;
  if (fs::is_directory(p, ec)) {
    navigate(p);
    return std::nullopt;
  }
  if (!mode_.saving) {
    if (!fs::is_regular_file(p, ec)) {
      error_ = p.string() + ": no such file";
      return std::nullopt;
    }
    return p;
  }
  if (p.filename().empty()) {
    error_ = "type a file name";
    return std::nullopt;
  }
  const std::string& ext = mode_.extensions.front();
  if (lower_extension(p) != ext) p += ext;
  if (!fs::is_directory(p.parent_path(), ec)) {
    error_ = p.parent_path().string() + ": no such folder";
    return std::nullopt;
  }
  if (fs::exists(p, ec) && confirm_overwrite_ != p.string()) {
    confirm_overwrite_ = p.string();
    error_ = p.filename().string() + " exists: press Save again to replace it";
    return std::nullopt;
  }
  return p;
}

FileBrowser::Outcome FileBrowser::draw() {
  center_next_window(720, 480);
  bool keep = true;
  // When the title-bar close button clears `keep`, BeginPopupModal ends the popup itself
  // and returns false.
  if (!ImGui::BeginPopupModal(mode_.title.c_str(), &keep)) return Outcome::Closed;

  std::optional<fs::path> chosen;
  bool cancel = false;

  ImGui::BeginDisabled(dir_ == dir_.root_path());
  if (ImGui::Button("Up")) navigate(dir_.parent_path());
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::TextUnformatted(dir_.string().c_str());

  const float footer = ImGui::GetFrameHeightWithSpacing() * 2 + ImGui::GetTextLineHeightWithSpacing() * 2;
  ImGui::BeginChild("##entries", ImVec2(0, -footer), true);
  std::optional<fs::path> enter_dir;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(entries_.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const DirEntry& e = entries_[static_cast<std::size_t>(i)];
      const std::string label = e.is_dir ? "[dir]  " + e.name + "/" : "       " + e.name;
      ImGui::PushID(i);
      if (ImGui::Selectable(label.c_str(), selected_ == i, ImGuiSelectableFlags_AllowDoubleClick)) {
        selected_ = i;
        error_.clear();
        const bool twice = ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
        if (e.is_dir) {
          if (twice) enter_dir = dir_ / e.name;
        } else {
          path_text_ = (dir_ / e.name).string();
          if (twice) chosen = submit();
        }
      }
      ImGui::PopID();
    }
  }
  if (entries_.empty()) ImGui::TextDisabled("(no folders or matching files)");
  ImGui::EndChild();
  if (enter_dir) navigate(*enter_dir);

  ImGui::SetNextItemWidth(-1);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  // A new id per opening: ImGui would otherwise keep an old edit buffer of this field.
  ImGui::PushID(serial_);
  if (ImGui::InputText("##path", &path_text_, ImGuiInputTextFlags_EnterReturnsTrue)) chosen = submit();
  ImGui::PopID();
  std::string filter;
  for (const std::string& ext : mode_.extensions) filter += (filter.empty() ? "*" : ", *") + ext;
  ImGui::TextDisabled("showing folders and %s files; double-click to choose", filter.c_str());
  error_text(error_);
  if (ImGui::Button(mode_.saving ? "Save" : "Open", ImVec2(100, 0))) chosen = submit();
  ImGui::SameLine();
  if (ImGui::Button("Cancel", ImVec2(100, 0)) || escape_pressed()) cancel = true;

  Outcome outcome = Outcome::Open;
  if (chosen || cancel) {
    ImGui::CloseCurrentPopup();
    if (chosen) {
      chosen_ = *chosen;
      outcome = Outcome::Chosen;
    } else {
      outcome = Outcome::Cancelled;
    }
  }
  ImGui::EndPopup();
  return outcome;
}

}  // namespace pathscope::app
