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
/// rename itself survives a power cut. A symlink at `path` is followed (chains too): the
/// file it names is replaced, the temporary made beside that file, and the link stays a
/// link. A file replaced keeps its permission bits (not its owner: the new file is the
/// writer's); a new one gets those of any created file (0666 less the umask). Before
/// writing, temporaries that earlier saves to the same file left behind when killed
/// (`<name>.saving-<pid>[-<n>].tmp` whose process is gone) are removed; no other file is.
/// On failure the temporary is removed, an existing file at `path` is left as it was
/// (unless only the final folder flush failed: then the new file is in place, and the
/// message says so), and an Io error names `path`, the step and the system's reason.
Status write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace pathscope
