// settings.json: read leniently (anything wrong -> defaults and one message), written
// atomically so that two windows closing at once never leave half a file.
//
// The folder follows the XDG Base Directory Specification ($XDG_CONFIG_HOME, default
// ~/.config); PATHSCOPE_CONFIG_DIR overrides it for tests.

#include "app/platform/settings.hpp"

#include "planner/core/atomic_write.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <system_error>

namespace pathscope::app {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kFormat = "pathscope-settings";
constexpr int kVersion = 1;
constexpr std::uintmax_t kMaxSettingsBytes = 1 << 20;
constexpr int kMinWindowSide = 200;
constexpr int kMaxWindowSide = 16384;
// Window positions are kept within this many pixels of the origin.
constexpr int kMaxWindowCoordinate = 1 << 16;
// A window manager's frame is thinner than this on any side.
constexpr int kMaxFrameSide = 256;

fs::path env_path(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? fs::path(v) : fs::path();
}

// A field check failed: the message names the field.
struct BadField {
  std::string field;
  std::string expected;
};

long long read_int(const json& obj, const char* key, const std::string& where) {
  const json& v = obj.at(key);
  if (!v.is_number_integer()) throw BadField{where + key, "an integer"};
  return v.get<long long>();
}

int clamp_int(long long v, int lo, int hi) { return static_cast<int>(std::clamp<long long>(v, lo, hi)); }

AppSettings from_json(const json& doc) {
  AppSettings s;
  if (!doc.is_object()) throw BadField{"(top level)", "an object"};
  if (!doc.contains("format") || doc["format"] != kFormat)
    throw BadField{"format", std::string("\"") + kFormat + "\""};
  if (!doc.contains("version") || !doc["version"].is_number_integer() ||
      doc["version"].get<long long>() != kVersion) {
    throw BadField{"version", std::to_string(kVersion)};
  }
  if (doc.contains("recent_files")) {
    const json& list = doc["recent_files"];
    if (!list.is_array()) throw BadField{"recent_files", "an array of strings"};
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!list[i].is_string()) throw BadField{"recent_files[" + std::to_string(i) + "]", "a string"};
      const std::string path = list[i].get<std::string>();
      if (path.empty()) continue;
      if (s.recent_files.size() < kMaxRecentFiles &&
          std::find(s.recent_files.begin(), s.recent_files.end(), path) == s.recent_files.end()) {
        s.recent_files.push_back(path);
      }
    }
  }
  if (doc.contains("window")) {
    const json& w = doc["window"];
    if (!w.is_object()) throw BadField{"window", "an object"};
    // Out-of-range values are clamped: not worth losing the rest of the file.
    auto side = [&](const char* key) {
      const long long v = read_int(w, key, "window.");
      return v <= 0 ? 0 : clamp_int(v, kMinWindowSide, kMaxWindowSide);
    };
    auto coordinate = [&](const char* key) {
      return clamp_int(read_int(w, key, "window."), -kMaxWindowCoordinate, kMaxWindowCoordinate);
    };
    if (w.contains("width")) s.window_width = side("width");
    if (w.contains("height")) s.window_height = side("height");
    if (w.contains("x")) s.window_x = coordinate("x");
    if (w.contains("y")) s.window_y = coordinate("y");
    if (w.contains("frame")) {
      const json& f = w["frame"];
      if (!f.is_array() || f.size() != 4) throw BadField{"window.frame", "[left, top, right, bottom]"};
      int* sides[] = {&s.frame_left, &s.frame_top, &s.frame_right, &s.frame_bottom};
      for (std::size_t i = 0; i < 4; ++i) {
        if (!f[i].is_number_integer())
          throw BadField{"window.frame[" + std::to_string(i) + "]", "an integer"};
        *sides[i] = clamp_int(f[i].get<long long>(), 0, kMaxFrameSide);
      }
    }
    auto column = [&](const char* key) { return clamp_int(read_int(w, key, "window."), -4096, 4096); };
    if (w.contains("left_column")) s.left_column = column("left_column");
    if (w.contains("right_column")) s.right_column = column("right_column");
    if (w.contains("maximized")) {
      if (!w["maximized"].is_boolean()) throw BadField{"window.maximized", "true or false"};
      s.window_maximized = w["maximized"].get<bool>();
    }
  }
  if (doc.contains("layout")) {
    const json& l = doc["layout"];
    if (!l.is_object()) throw BadField{"layout", "an object"};
    if (l.contains("preset")) {
      if (!l["preset"].is_string()) throw BadField{"layout.preset", "a string"};
      s.layout = l["preset"].get<std::string>();
    }
    if (l.contains("panels")) {
      const json& list = l["panels"];
      if (!list.is_array()) throw BadField{"layout.panels", "an array of strings"};
      s.open_panels.emplace();
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_string()) throw BadField{"layout.panels[" + std::to_string(i) + "]", "a string"};
        s.open_panels->push_back(list[i].get<std::string>());
      }
    }
  }
  if (doc.contains("last_directory")) {
    if (!doc["last_directory"].is_string()) throw BadField{"last_directory", "a string"};
    s.last_directory = doc["last_directory"].get<std::string>();
  }
  return s;
}

json to_json(const AppSettings& s) {
  json doc = json::object();
  doc["format"] = kFormat;
  doc["version"] = kVersion;
  doc["recent_files"] = s.recent_files;
  json w = json::object();
  w["width"] = s.window_width;
  w["height"] = s.window_height;
  w["x"] = s.window_x;
  w["y"] = s.window_y;
  w["frame"] = {s.frame_left, s.frame_top, s.frame_right, s.frame_bottom};
  w["maximized"] = s.window_maximized;
  w["left_column"] = s.left_column;
  w["right_column"] = s.right_column;
  doc["window"] = w;
  json layout = json::object();
  layout["preset"] = s.layout;
  if (s.open_panels) layout["panels"] = *s.open_panels;
  doc["layout"] = layout;
  doc["last_directory"] = s.last_directory;
  return doc;
}

void tell(std::string text, std::string* message) {
  if (message) {
    *message = std::move(text);
  } else {
    std::fprintf(stderr, "pathscope: %s\n", text.c_str());
  }
}

// Creates the folder; false if it does not exist afterwards.
bool ensure_dir(const fs::path& dir) {
  if (dir.empty()) return false;
  std::error_code ec;
  fs::create_directories(dir, ec);
  return fs::is_directory(dir, ec);
}

}  // namespace

fs::path settings_dir() {
  if (fs::path p = env_path("PATHSCOPE_CONFIG_DIR"); !p.empty()) return p;
  // XDG: a relative $XDG_CONFIG_HOME is invalid and must be ignored.
  if (fs::path p = env_path("XDG_CONFIG_HOME"); !p.empty() && p.is_absolute()) return p / "pathscope";
  if (fs::path home = env_path("HOME"); !home.empty()) return home / ".config" / "pathscope";
  return {};
}

AppSettings load_settings(std::string* message) {
  if (message) message->clear();
  const fs::path dir = settings_dir();
  if (dir.empty()) return {};
  const fs::path file = dir / "settings.json";
  std::error_code ec;
  if (!fs::exists(file, ec)) return {};
  const std::string ignored = "; using the default settings";
  if (!fs::is_regular_file(file, ec)) {
    tell(file.string() + ": not a regular file" + ignored, message);
    return {};
  }
  if (const std::uintmax_t size = fs::file_size(file, ec); ec || size > kMaxSettingsBytes) {
    tell(file.string() + ": too large or unreadable" + ignored, message);
    return {};
  }
  std::ifstream in(file, std::ios::binary);
  std::string text;
  if (in) text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in.is_open() || in.bad()) {
    tell(file.string() + ": cannot read the file" + ignored, message);
    return {};
  }
  try {
    return from_json(json::parse(text));
  } catch (const json::exception& e) {
    tell(file.string() + ": " + e.what() + ignored, message);
  } catch (const BadField& bad) {
    tell(file.string() + ": " + bad.field + ": expected " + bad.expected + ignored, message);
  }
  return {};
}

bool save_settings(const AppSettings& settings) {
  const fs::path dir = settings_dir();
  if (!ensure_dir(dir)) return false;
  // write_file_atomically takes a temporary of its own per writer, so two windows
  // closing at once cannot mix their bytes; the last rename wins.
  return write_file_atomically(dir / "settings.json", to_json(settings).dump(2) + "\n").ok();
}

std::string imgui_ini_path() {
  const fs::path dir = settings_dir();
  if (!ensure_dir(dir)) return {};
  return (dir / "imgui.ini").string();
}

void remember_recent_file(std::vector<std::string>& recent, const fs::path& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) absolute = path;
  const std::string key = absolute.lexically_normal().string();
  forget_recent_file(recent, key);
  recent.insert(recent.begin(), key);
  if (recent.size() > kMaxRecentFiles) recent.resize(kMaxRecentFiles);
}

void forget_recent_file(std::vector<std::string>& recent, const std::string& path) {
  recent.erase(std::remove(recent.begin(), recent.end(), path), recent.end());
}

}  // namespace pathscope::app
