#pragma once

// Small helpers for tests that read text and write files.

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace pathscope::test {

/// True when `part` occurs in `text`.
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// A fresh empty directory `pathscope_<name>` in the temporary directory (CTest may run
/// cases in parallel: each case names its own).
inline std::filesystem::path fresh_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("pathscope_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// The bytes of a file ("" when it cannot be read).
inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace pathscope::test
