// write_file_atomically: the file is replaced whole or not at all, no temporary is left
// behind, and failures name the file. (That the temporary and the folder are flushed
// with fsync cannot be observed from a test; `strace -e trace=fsync` shows it.)

#include "planner/core/atomic_write.hpp"

#include <doctest/doctest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

#include "tests/planner/core/read_only_folder.hpp"
#include "tests/test_files.hpp"

namespace fs = std::filesystem;
using namespace pathscope;

namespace {

using test::contains;
using test::read_file;

// A fresh empty directory for one test case.
fs::path atomic_dir(const std::string& name) { return test::fresh_dir("atomic_write_" + name); }

void write_plain(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

int count_entries(const fs::path& dir) {
  int n = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++n;
  return n;
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

/// The id of a process that has ended (a child, reaped): no live process has it, unless the
/// system reuses it meanwhile, which takes a full round of process ids.
pid_t ended_process_id() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  REQUIRE(child > 0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

/// The permission bits of a file (following symlinks).
fs::perms mode_of(const fs::path& p) { return fs::status(p).permissions() & fs::perms::mask; }

}  // namespace

TEST_SUITE("atomic_write") {
  TEST_CASE("a new file is written, an old one replaced, and no temporary is left") {
    const fs::path dir = atomic_dir("replace");
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
    const fs::path dir = atomic_dir("relative");
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
    const fs::path dir = atomic_dir("stale");
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
    const fs::path dir = atomic_dir("read_only");
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
    const fs::path dir = atomic_dir("too_big");
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
    const fs::path dir = atomic_dir("missing");
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

  TEST_CASE("temporaries of ended saves to the same file are removed, others' files are kept") {
    const fs::path dir = atomic_dir("ended");
    const fs::path target = dir / "a.json";
    const std::string ended = std::to_string(ended_process_id());
    const std::string live = std::to_string(::getpid());
    // Ours, from saves that were killed: removed.
    write_plain(dir / ("a.json.saving-" + ended + ".tmp"), "killed");
    write_plain(dir / ("a.json.saving-" + ended + "-7.tmp"), "killed too");
    // Kept: a live writer's, another file's, names not of the pattern, a folder.
    const char* kept[] = {"b.json.saving-ENDED.tmp",     "a.json.saving-LIVE.tmp",
                          "a.json.saving-ENDED.tmp.bak", "a.json.saving-ENDED-.tmp",
                          "a.json.saving--ENDED.tmp",    "a.json.saving-x1.tmp",
                          "xa.json.saving-ENDED.tmp",    "a.json.saving-ENDED-2-3.tmp"};
    auto name_of = [&](std::string name) {
      for (const auto& [key, value] : {std::pair{"ENDED", ended}, std::pair{"LIVE", live}}) {
        if (const auto at = name.find(key); at != std::string::npos)
          name.replace(at, std::string(key).size(), value);
      }
      return name;
    };
    for (const char* name : kept) write_plain(dir / name_of(name), "keep");
    fs::create_directories(dir / ("a.json.saving-" + ended + "-1.tmp"));

    REQUIRE(write_file_atomically(target, "new"));
    CHECK(read_file(target) == "new");
    CHECK_FALSE(fs::exists(dir / ("a.json.saving-" + ended + ".tmp")));
    CHECK_FALSE(fs::exists(dir / ("a.json.saving-" + ended + "-7.tmp")));
    for (const char* name : kept) CHECK_MESSAGE(read_file(dir / name_of(name)) == "keep", name_of(name));
    CHECK(fs::is_directory(dir / ("a.json.saving-" + ended + "-1.tmp")));
    CHECK(count_entries(dir) == 1 + int(std::size(kept)) + 1);
    fs::remove_all(dir);
  }

  TEST_CASE("a symlink stays a symlink: the save replaces the file it points to, beside it") {
    const fs::path dir = atomic_dir("symlink");
    fs::create_directories(dir / "real");
    fs::create_directories(dir / "links");
    const fs::path real = dir / "real" / "a.json";
    write_plain(real, "old");
    fs::create_symlink("../real/a.json", dir / "links" / "a.json");          // relative
    fs::create_symlink(dir / "links" / "a.json", dir / "links" / "b.json");  // absolute, to a link

    REQUIRE(write_file_atomically(dir / "links" / "a.json", "through one link"));
    CHECK(fs::is_symlink(dir / "links" / "a.json"));
    CHECK(read_file(real) == "through one link");
    REQUIRE(write_file_atomically(dir / "links" / "b.json", "through two links"));
    CHECK(fs::is_symlink(dir / "links" / "b.json"));
    CHECK(fs::is_symlink(dir / "links" / "a.json"));
    CHECK(read_file(real) == "through two links");
    CHECK(count_entries(dir / "real") == 1);
    CHECK(count_entries(dir / "links") == 2);

    // A link to a file not yet there: the file is created where it points.
    fs::create_symlink("../real/new.json", dir / "links" / "new.json");
    REQUIRE(write_file_atomically(dir / "links" / "new.json", "created"));
    CHECK(fs::is_symlink(dir / "links" / "new.json"));
    CHECK(read_file(dir / "real" / "new.json") == "created");

    // A loop of links: an Io error naming the file, nothing written.
    fs::create_symlink("loop2", dir / "links" / "loop1");
    fs::create_symlink("loop1", dir / "links" / "loop2");
    const Status loop = write_file_atomically(dir / "links" / "loop1", "x");
    REQUIRE_FALSE(loop);
    CHECK(loop.error().code == ErrorCode::Io);
    CHECK(loop.error().where == (dir / "links" / "loop1").string());
    CHECK(fs::is_symlink(dir / "links" / "loop1"));
    CHECK(count_entries(dir / "links") == 5);
    fs::remove_all(dir);
  }

  TEST_CASE("the replaced file keeps its permissions") {
    const fs::path dir = atomic_dir("permissions");
    const fs::path target = dir / "a.json";
    for (const fs::perms mode : {fs::perms(0600), fs::perms(0640), fs::perms(0755), fs::perms(0444)}) {
      write_plain(target, "old");
      fs::permissions(target, mode, fs::perm_options::replace);
      REQUIRE(write_file_atomically(target, "new"));
      CHECK(read_file(target) == "new");
      CHECK(mode_of(target) == mode);
      fs::permissions(target, fs::perms(0644), fs::perm_options::replace);
      fs::remove(target);
    }
    // Through a symlink, the file pointed to keeps its own.
    write_plain(dir / "real", "old");
    fs::permissions(dir / "real", fs::perms(0600), fs::perm_options::replace);
    fs::create_symlink("real", dir / "link");
    REQUIRE(write_file_atomically(dir / "link", "new"));
    CHECK(mode_of(dir / "real") == fs::perms(0600));
    CHECK(read_file(dir / "real") == "new");
    fs::remove_all(dir);
  }

}  // TEST_SUITE
