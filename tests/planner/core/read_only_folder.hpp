#pragma once

// A folder that cannot be written to for the lifetime of a test, also when the tests run
// as root (who ignores file modes).

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <utility>

namespace pathscope::test {

/// Makes `dir` read-only (mode 0555) until destroyed. As root, also lowers the effective
/// user id to nobody (65534), so that the mode applies. effective() tells whether
/// creating a file in `dir` really fails here; if not, a test should skip its check.
class ReadOnlyFolder {
 public:
  explicit ReadOnlyFolder(std::filesystem::path dir) : dir_(std::move(dir)) {
    ::chmod(dir_.c_str(), 0555);
    if (::geteuid() == 0 && ::seteuid(kNobody) == 0) dropped_root_ = true;
    const std::filesystem::path probe = dir_ / ".write_probe";
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
      ::close(fd);
      ::unlink(probe.c_str());
    } else {
      effective_ = true;
    }
  }
  ~ReadOnlyFolder() {
    if (dropped_root_) (void)::seteuid(0);
    ::chmod(dir_.c_str(), 0755);
  }
  ReadOnlyFolder(const ReadOnlyFolder&) = delete;
  ReadOnlyFolder& operator=(const ReadOnlyFolder&) = delete;

  /// True when files cannot be created in the folder.
  bool effective() const { return effective_; }

 private:
  static constexpr uid_t kNobody = 65534;
  std::filesystem::path dir_;
  bool dropped_root_ = false;
  bool effective_ = false;
};

}  // namespace pathscope::test
