// Atomic, durable file replacement (the usual POSIX recipe; see "Files are hard",
// D. Luu, and the fsync(2) and rename(2) manual pages).
//
//   1. Create a new temporary file next to the target (O_EXCL: never reuse someone
//      else's), so that the rename in step 4 stays within one file system.
//   2. Write all the bytes.
//   3. fsync the temporary, then close it. Without the fsync, a power cut after the
//      rename can leave the new name pointing at a file whose data never reached the
//      disk: an empty or partial file where the old one was.
//   4. rename over the target: atomic, so any reader sees the old file or the new one.
//   5. fsync the folder. The rename is a change to the folder; until the folder is on
//      disk, a power cut can undo it (then the old file comes back, which is safe, but
//      a save reported as done is lost). Some file systems cannot fsync a folder and say
//      EINVAL or ENOTSUP; nothing more can be done there, so that is not an error.
//
// A killed process can leave a temporary file behind (steps 1-3), never a damaged target.

#include "planner/core/atomic_write.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <string>
#include <system_error>

namespace pathscope {

namespace {

namespace fs = std::filesystem;

/// Attempts at a free temporary name before giving up (another writer holds each).
constexpr int kMaxTempNames = 100;

/// The system's reason for the last failure, from errno.
std::string reason(int error) { return std::error_code(error, std::generic_category()).message(); }

/// Owns a file descriptor; closes it (ignoring errors) unless released.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;

  int get() const { return fd_; }
  /// Closes now; returns 0 or the errno of close().
  int close() {
    const int result = ::close(fd_);
    fd_ = -1;
    return result == 0 ? 0 : errno;
  }

 private:
  int fd_;
};

/// fsync, retried when interrupted by a signal; returns 0 or the errno.
int sync_fd(int fd) {
  while (::fsync(fd) != 0) {
    if (errno != EINTR) return errno;
  }
  return 0;
}

/// Writes everything, continuing after partial writes and signals; returns 0 or the errno.
int write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
  return 0;
}

}  // namespace

Status write_file_atomically(const fs::path& path, std::string_view bytes) {
  const std::string where = path.string();
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");

  // 1. A temporary no other writer uses: the process id, then a counter if taken.
  const std::string base = path.string() + ".saving-" + std::to_string(::getpid());
  fs::path temp;
  int fd = -1;
  for (int attempt = 0; attempt < kMaxTempNames && fd < 0; ++attempt) {
    temp = base + (attempt == 0 ? std::string() : "-" + std::to_string(attempt)) + ".tmp";
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    return make_error(ErrorCode::Io, where,
                      "cannot create the temporary file " + temp.string() + ": " + reason(errno));
  }
  FileDescriptor file(fd);
  auto fail = [&](const std::string& step, int error) -> Status {
    ::unlink(temp.c_str());
    return make_error(ErrorCode::Io, where, step + ": " + reason(error));
  };

  // 2. and 3.
  if (const int error = write_all(file.get(), bytes); error != 0) {
    file.close();
    return fail("cannot write the temporary file " + temp.string(), error);
  }
  if (const int error = sync_fd(file.get()); error != 0) {
    file.close();
    return fail("cannot flush the temporary file " + temp.string() + " to disk", error);
  }
  if (const int error = file.close(); error != 0) {
    return fail("cannot close the temporary file " + temp.string(), error);
  }

  // 4.
  if (::rename(temp.c_str(), path.c_str()) != 0) return fail("cannot replace the file", errno);

  // 5.
  const int dir_fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) {
    return make_error(ErrorCode::Io, where,
                      "the file was replaced, but its folder " + folder.string() +
                          " cannot be opened to flush it to disk: " + reason(errno));
  }
  FileDescriptor dir(dir_fd);
  if (const int error = sync_fd(dir.get()); error != 0 && error != EINVAL && error != ENOTSUP) {
    return make_error(ErrorCode::Io, where,
                      "the file was replaced, but its folder " + folder.string() +
                          " cannot be flushed to disk: " + reason(error));
  }
  return Ok{};
}

}  // namespace pathscope
