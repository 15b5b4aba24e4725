// write_file_atomically: the file is replaced whole or not at all, no temporary is left
// behind, and failures name the file. (That the temporary and the folder are flushed
// with fsync cannot be observed from a test; `strace -e trace=fsync` shows it.)

#include "planner/core/atomic_write.hpp"

#include <doctest/doctest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

#include "tests/planner/core/read_only_folder.hpp"

namespace fs = std::filesystem;
using namespace pathscope;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("pathscope_atomic_write_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_plain(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

int count_entries(const fs::path& dir) {
  int n = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++n;
  return n;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// Lowers the soft file size limit for the lifetime of this object; writes beyond it fail
/// with EFBIG (SIGXFSZ, which would end the process, is ignored meanwhile).
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &old_);
    rlimit lowered = old_;
    lowered.rlim_cur = bytes;
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    ::setrlimit(RLIMIT_FSIZE, &lowered);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit old_{};
  void (*old_handler_)(int) = SIG_DFL;
};

}  // namespace

TEST_SUITE("atomic_write") {
  TEST_CASE("a new file is written, an old one replaced, and no temporary is left") {
    const fs::path dir = fresh_dir("replace");
    const fs::path target = dir / "a.json";
    REQUIRE(write_file_atomically(target, "first\n"));
    CHECK(read_file(target) == "first\n");
    CHECK(count_entries(dir) == 1);

    REQUIRE(write_file_atomically(target, "second, longer than the first\n"));
    CHECK(read_file(target) == "second, longer than the first\n");
    REQUIRE(write_file_atomically(target, ""));
    CHECK(fs::file_size(target) == 0);
    const std::string binary("\0\x89PNG\r\n\x1a\n\xff", 10);
    REQUIRE(write_file_atomically(target, binary));
    CHECK(read_file(target) == binary);
    CHECK(count_entries(dir) == 1);

    // The permissions of any newly created file (0666 less the umask).
    write_plain(dir / "plain", "x");
    CHECK(fs::status(target).permissions() == fs::status(dir / "plain").permissions());
    fs::remove_all(dir);
  }

  TEST_CASE("a path without a folder is written in the working directory") {
    const fs::path dir = fresh_dir("relative");
    const fs::path old_cwd = fs::current_path();
    fs::current_path(dir);
    const Status written = write_file_atomically("bare.txt", "bare");
    fs::current_path(old_cwd);
    REQUIRE_MESSAGE(written, (written ? std::string() : written.error().to_string()));
    CHECK(read_file(dir / "bare.txt") == "bare");
    CHECK(count_entries(dir) == 1);
    fs::remove_all(dir);
  }

  TEST_CASE("a temporary left by another writer is neither reused nor removed") {
    const fs::path dir = fresh_dir("stale");
    const fs::path target = dir / "a.json";
    const fs::path stale = dir / ("a.json.saving-" + std::to_string(::getpid()) + ".tmp");
    write_plain(stale, "someone else's bytes");
    REQUIRE(write_file_atomically(target, "mine"));
    CHECK(read_file(target) == "mine");
    CHECK(read_file(stale) == "someone else's bytes");
    CHECK(count_entries(dir) == 2);
    fs::remove_all(dir);
  }

  TEST_CASE("an unwritable folder: the error names the file and the old file stays intact") {
    const fs::path dir = fresh_dir("read_only");
    const fs::path target = dir / "a.json";
    write_plain(target, "old contents");
    Status status = Ok{};
    bool effective = false;
    {
      const pathscope::test::ReadOnlyFolder read_only(dir);
      effective = read_only.effective();
      if (effective) status = write_file_atomically(target, "new contents");
    }
    if (!effective) {
      MESSAGE("the folder stays writable here (root without seteuid): check skipped");
    } else {
      REQUIRE_FALSE(status);
      CHECK(status.error().code == ErrorCode::Io);
      CHECK(status.error().where == target.string());
      CHECK(contains(status.error().to_string(), target.string()));
      CHECK(contains(status.error().message, "cannot create the temporary file"));
      CHECK(read_file(target) == "old contents");
      CHECK(count_entries(dir) == 1);
    }
    fs::remove_all(dir);
  }

  TEST_CASE("a write that fails midway removes the temporary and keeps the old file") {
    const fs::path dir = fresh_dir("too_big");
    const fs::path target = dir / "a.json";
    write_plain(target, "old contents");
    Status status = Ok{};
    {
      const FileSizeLimit limit(1024);
      status = write_file_atomically(target, std::string(64 * 1024, 'x'));
    }
    REQUIRE_FALSE(status);
    CHECK(status.error().code == ErrorCode::Io);
    CHECK(status.error().where == target.string());
    CHECK(contains(status.error().message, "cannot write the temporary file"));
    CHECK(read_file(target) == "old contents");
    CHECK(count_entries(dir) == 1);
    fs::remove_all(dir);
  }

  TEST_CASE("a missing folder or a target that is a folder: Io errors naming the file") {
    const fs::path dir = fresh_dir("missing");
    const fs::path nowhere = dir / "missing" / "a.json";
    const Status missing = write_file_atomically(nowhere, "x");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().code == ErrorCode::Io);
    CHECK(missing.error().where == nowhere.string());
    CHECK_FALSE(fs::exists(dir / "missing"));

    fs::create_directories(dir / "b.json" / "inside");
    const Status blocked = write_file_atomically(dir / "b.json", "x");
    REQUIRE_FALSE(blocked);
    CHECK(blocked.error().where == (dir / "b.json").string());
    CHECK(contains(blocked.error().message, "cannot replace the file"));
    CHECK(fs::is_directory(dir / "b.json" / "inside"));
    CHECK(count_entries(dir) == 1);
    fs::remove_all(dir);
  }

}  // TEST_SUITE
