#pragma once

// Replacing a file so that a killed process or a power cut leaves either the old file or
// the whole new one, never a mix or an empty file. The steps and why each is needed are
// described at the top of atomic_write.cpp. POSIX only (open, fsync, rename).

#include <filesystem>
#include <string_view>

#include "planner/core/result.hpp"

namespace pathscope {

/// Writes `bytes` to `path` atomically and durably: a new temporary file next to `path`
/// (same folder, so the rename stays on one file system) is written, flushed to disk
/// (fsync) and closed, renamed over `path`, and then the folder is flushed so that the
/// rename itself survives a power cut. The new file gets the usual permissions of a
/// created file (0666 less the umask). On failure the temporary is removed, an existing
/// file at `path` is left as it was (unless only the final folder flush failed: then the
/// new file is in place, and the message says so), and an Io error names `path`, the
/// step and the system's reason.
Status write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace pathscope
