// Atomic, durable file replacement (the usual POSIX recipe; see "Files are hard",
// D. Luu, and the fsync(2), rename(2), fchmod(2) and kill(2) manual pages).
//
//   0. Resolve a symlink to the file it names (following chains of links): the file
//      replaced is that one, so the link stays a link. Remove what earlier saves to the
//      same file left behind when killed: temporaries of our own naming pattern for this
//      file whose process no longer exists.
//   1. Create a new temporary file next to the file (O_EXCL: never reuse someone else's),
//      so that the rename in step 4 stays within one file system. When the file exists,
//      give the temporary its permission bits.
//   2. Write all the bytes.
//   3. fsync the temporary, then close it. Without the fsync, a power cut after the
//      rename can leave the new name pointing at a file whose data never reached the
//      disk: an empty or partial file where the old one was.
//   4. rename over the file: atomic, so any reader sees the old file or the new one.
//   5. fsync the folder. The rename is a change to the folder; until the folder is on
//      disk, a power cut can undo it (then the old file comes back, which is safe, but
//      a save reported as done is lost). Some file systems cannot fsync a folder and say
//      EINVAL or ENOTSUP; nothing more can be done there, so that is not an error.
//
// A killed process can leave a temporary file behind (steps 1-3), never a damaged file;
// the next save to the same file removes it (step 0). A temporary is "ours" only when
// its whole name is `<file name>.saving-<pid>.tmp` or `<file name>.saving-<pid>-<n>.tmp`
// and it is a plain file; it is stale only when kill(pid, 0) says no such process
// (ESRCH). A live process's temporary, or one whose process we may not signal (EPERM),
// is kept. Process ids are those of this machine: a folder shared with other machines
// may hold a live writer's temporary whose id is free here (such folders are not
// supported for concurrent saves).

#include "planner/core/atomic_write.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <optional>
#include <string>
#include <system_error>

namespace pathscope {

namespace fs = std::filesystem;

namespace {

/// Attempts at a free temporary name before giving up (another writer holds each).
constexpr int kMaxTempNames = 100;
/// Symlinks followed before giving up (a loop), as the system's own SYMLOOP_MAX.
constexpr int kMaxSymlinks = 40;
/// What a temporary's name adds to the file's name: `.saving-<pid>[-<n>].tmp`.
constexpr std::string_view kTempInfix = ".saving-";
constexpr std::string_view kTempSuffix = ".tmp";

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

/// The file a path names once symlinks are followed (the path itself when it is not a
/// symlink; it need not exist). Relative link targets are taken from the link's folder.
/// Empty on failure, with `error` the errno (ELOOP for a loop, or that of reading a link).
fs::path resolve_symlinks(const fs::path& path, int& error) {
  fs::path at = path;
  for (int hop = 0; hop <= kMaxSymlinks; ++hop) {
    struct stat st {};
    if (::lstat(at.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return at;  // a file, a folder or nothing
    std::error_code ec;
    const fs::path target = fs::read_symlink(at, ec);
    if (ec) {
      error = ec.value();
      return {};
    }
    at = target.is_absolute() ? target : at.parent_path() / target;
  }
  error = ELOOP;
  return {};
}

/// The process id in `name` when it is a temporary of ours for `file_name`
/// (`<file_name>.saving-<pid>.tmp` or `<file_name>.saving-<pid>-<n>.tmp`, digits only).
std::optional<pid_t> temp_owner(std::string_view name, std::string_view file_name) {
  if (name.size() <= file_name.size() + kTempInfix.size() + kTempSuffix.size() ||
      name.substr(0, file_name.size()) != file_name ||
      name.substr(file_name.size(), kTempInfix.size()) != kTempInfix ||
      name.substr(name.size() - kTempSuffix.size()) != kTempSuffix) {
    return std::nullopt;
  }
  std::string_view rest = name.substr(file_name.size() + kTempInfix.size());
  rest.remove_suffix(kTempSuffix.size());
  const auto digits = [](std::string_view s) {
    if (s.empty() || s.size() > 18 || s.front() == '0') return false;
    for (const char c : s) {
      if (c < '0' || c > '9') return false;
    }
    return true;
  };
  const std::size_t dash = rest.find('-');
  const std::string_view pid = rest.substr(0, dash);
  if (!digits(pid)) return std::nullopt;
  if (dash != std::string_view::npos && !digits(rest.substr(dash + 1))) return std::nullopt;
  const long long id = std::stoll(std::string(pid));
  if (id <= 0 || id != static_cast<pid_t>(id)) return std::nullopt;
  return static_cast<pid_t>(id);
}

/// Removes the temporaries of ours for `file` (in its folder) whose process has ended.
/// Best effort: a folder that cannot be listed or a file that cannot be removed is left,
/// and the save goes on (its own temporary has a fresh name either way).
void remove_stale_temporaries(const fs::path& folder, const fs::path& file) {
  const std::string file_name = file.filename().string();
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::optional<pid_t> owner = temp_owner(name, file_name);
    if (!owner || *owner == ::getpid()) continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (::kill(*owner, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    ::unlink(it->path().c_str());
  }
}

}  // namespace

Status write_file_atomically(const fs::path& path, std::string_view bytes) {
  const std::string where = path.string();

  // 0. The file a symlink names, and what killed saves to it left.
  int link_error = 0;
  const fs::path file = resolve_symlinks(path, link_error);
  if (file.empty()) {
    return make_error(ErrorCode::Io, where, "cannot follow the symbolic link: " + reason(link_error));
  }
  const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
  remove_stale_temporaries(folder, file);
  struct stat old_file {};
  const bool replacing = ::stat(file.c_str(), &old_file) == 0 && S_ISREG(old_file.st_mode);

  // 1. A temporary no other writer uses: the process id, then a counter if taken.
  const std::string base = file.string() + std::string(kTempInfix) + std::to_string(::getpid());
  fs::path temp;
  int fd = -1;
  for (int attempt = 0; attempt < kMaxTempNames && fd < 0; ++attempt) {
    temp = base + (attempt == 0 ? std::string() : "-" + std::to_string(attempt)) + std::string(kTempSuffix);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    return make_error(ErrorCode::Io, where,
                      "cannot create the temporary file " + temp.string() + ": " + reason(errno));
  }
  FileDescriptor temp_file(fd);
  auto fail = [&](const std::string& step, int error) -> Status {
    ::unlink(temp.c_str());
    return make_error(ErrorCode::Io, where, step + ": " + reason(error));
  };
  // The old file's permission bits (the owner stays the writer: changing it needs rights
  // a save should not have).
  if (replacing && ::fchmod(temp_file.get(), old_file.st_mode & 07777) != 0) {
    const int error = errno;
    temp_file.close();
    return fail("cannot give the temporary file " + temp.string() + " the file's permissions", error);
  }

  // 2. and 3.
  if (const int error = write_all(temp_file.get(), bytes); error != 0) {
    temp_file.close();
    return fail("cannot write the temporary file " + temp.string(), error);
  }
  if (const int error = sync_fd(temp_file.get()); error != 0) {
    temp_file.close();
    return fail("cannot flush the temporary file " + temp.string() + " to disk", error);
  }
  if (const int error = temp_file.close(); error != 0) {
    return fail("cannot close the temporary file " + temp.string(), error);
  }

  // 4.
  if (::rename(temp.c_str(), file.c_str()) != 0) return fail("cannot replace the file", errno);

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
