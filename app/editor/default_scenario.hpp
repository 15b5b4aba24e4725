#pragma once

// Where the default scenario (maps/default.json) is found when no file is given.

#include <filesystem>
#include <optional>

namespace pathscope::app {

/// maps/default.json looked up in the working directory, then in the source tree the
/// binary was built from; nullopt when neither exists.
std::optional<std::filesystem::path> find_default_scenario();

}  // namespace pathscope::app
