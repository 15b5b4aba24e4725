#include "planner/scenario/movingai_parse.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "planner/scenario/movingai_check.hpp"
#include "tests/planner/scenario/movingai_test_support.hpp"

namespace fs = std::filesystem;
using namespace pathscope;
using namespace pathscope::movingai_test;

namespace {

Error map_error(std::string_view text) {
  auto result = parse_movingai_map(text, "t.map");
  REQUIRE_FALSE(result.ok());
  return result.error();
}

Error scen_error(std::string_view text) {
  auto result = parse_movingai_scen(text, "x.scen");
  REQUIRE_FALSE(result.ok());
  return result.error();
}

}  // namespace

TEST_SUITE("movingai") {
  TEST_CASE("every benchmark map and scenario file parses, with the counts of the README") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    std::size_t total = 0;
    for (const BenchFile& file : kBenchFiles) {
      CAPTURE(file.scen);
      const fs::path map_path = bench_dir() / file.map;
      const fs::path scen_path = bench_dir() / file.scen;
      auto map = load_movingai_map(map_path);
      REQUIRE_MESSAGE(map.ok(), map.error().to_string());
      CHECK(map->name == fs::path(file.map).stem().string());
      CHECK(map->width == file.width);
      CHECK(map->height == file.height);
      CHECK(map->cells.size() == static_cast<std::size_t>(file.width) * file.height);

      auto problems = load_movingai_scen(scen_path);
      REQUIRE_MESSAGE(problems.ok(), problems.error().to_string());
      CHECK(problems->size() == file.problems);
      total += problems->size();

      auto checked = check_movingai_problems(*map, *problems, scen_path.string());
      CHECK_MESSAGE(checked.ok(), (checked.ok() ? std::string() : checked.error().to_string()));
      int previous_line = 1;
      for (const MovingAiProblem& p : *problems) {
        CHECK(p.line > previous_line);
        previous_line = p.line;
        CHECK(scen_map_path(scen_path, p) == map_path);
        // The README: every start and goal is a '.' cell, every length >= 0.
        CHECK(map->at(p.start.x, p.start.y) == '.');
        CHECK(map->at(p.goal.x, p.goal.y) == '.');
        CHECK(p.optimal_length >= 0);
        CHECK(p.tolerance >= 1e-3);
      }
    }
    CHECK(total == 25587);
  }

  TEST_CASE("only '.', '@' and 'T' occur in the benchmark maps") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    for (const BenchFile& file : kBenchFiles) {
      auto map = load_movingai_map(bench_dir() / file.map);
      REQUIRE(map.ok());
      for (const char c : map->cells) {
        REQUIRE((c == '.' || c == '@' || c == 'T'));
      }
    }
  }

  TEST_CASE("the legacy AR0011SR file: version 1.0, space separated, 2 decimals") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    const fs::path path = bench_dir() / "AR0011SR.map.scen";
    auto problems = load_movingai_scen(path);
    REQUIRE_MESSAGE(problems.ok(), problems.error().to_string());
    REQUIRE(problems->size() == 1280);
    const MovingAiProblem& p = problems->front();
    CHECK(p.line == 2);
    CHECK(p.bucket == 61);
    CHECK(p.map_name == "maps/bgmaps/AR0011SR.map");
    CHECK(p.map_width == 512);
    CHECK(p.map_height == 512);
    CHECK(p.start == glm::ivec2(210, 395));
    CHECK(p.goal == glm::ivec2(87, 201));
    CHECK(p.optimal_length == doctest::Approx(244.95).epsilon(1e-12));
    CHECK(p.tolerance == doctest::Approx(0.01 + 1e-9).epsilon(1e-12));
    // "132.40" keeps its trailing zero: still one hundredth.
    CHECK((*problems)[1].tolerance == doctest::Approx(0.01 + 1e-9).epsilon(1e-12));
    CHECK(scen_map_path(path, p) == bench_dir() / "AR0011SR.map");
  }

  TEST_CASE("CRLF scenario file from the benchmark set") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    auto problems = load_movingai_scen(bench_dir() / "random-32-32-20-random-1.scen");
    REQUIRE(problems.ok());
    REQUIRE(problems->size() == 409);
    const MovingAiProblem& p = problems->front();
    CHECK(p.line == 2);
    CHECK(p.bucket == 7);
    CHECK(p.map_name == "random-32-32-20.map");
    CHECK(p.start == glm::ivec2(5, 16));
    CHECK(p.goal == glm::ivec2(31, 24));
    CHECK(p.optimal_length == doctest::Approx(31.31370850).epsilon(1e-12));
  }

  TEST_CASE("CRLF, blank lines and a missing final newline in small files") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    auto map = parse_movingai_map("type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@.\r\nT..", "crlf.map");
    REQUIRE_MESSAGE(map.ok(), map.error().to_string());
    CHECK(map->name == "crlf");
    CHECK(map->at(1, 0) == '@');
    CHECK(map->at(0, 1) == 'T');
    CHECK(map->at(2, 1) == '.');

    auto scen = parse_movingai_scen(
        "version 1\r\n\r\n"
        "0\tm.map\t3\t2\t0\t0\t2\t1\t2.41421356\r\n"
        "   \r\n"
        "1 m.map 3 2 2 1 0 0 2.41421356\r\n\r\n\r\n",
        "crlf.scen");
    REQUIRE_MESSAGE(scen.ok(), scen.error().to_string());
    REQUIRE(scen->size() == 2);
    CHECK((*scen)[0].line == 3);
    CHECK((*scen)[1].line == 5);
    CHECK((*scen)[1].goal == glm::ivec2(0, 0));
    CHECK((*scen)[1].map_name == "m.map");

    // The benchmark files with trailing blank lines.
    auto arena = load_movingai_scen(bench_dir() / "arena2.map.scen");
    REQUIRE(arena.ok());
    CHECK(arena->size() == 929);
    // Berlin_1_256.map has no newline after its last row.
    auto berlin = load_movingai_map(bench_dir() / "Berlin_1_256.map");
    REQUIRE(berlin.ok());
    CHECK(berlin->height == 256);
  }

  TEST_CASE("map header lines in any order, trailing blank lines after the rows") {
    auto map = parse_movingai_map("width 3\nmap_is_not_a_key_here\n", "h.map");
    CHECK_FALSE(map.ok());
    auto ok = parse_movingai_map("width 3\n\nheight 1\ntype octile\nmap\nG.W\n\n\n", "h.map");
    REQUIRE_MESSAGE(ok.ok(), ok.error().to_string());
    CHECK(ok->width == 3);
    CHECK(ok->height == 1);
    CHECK(ok->at(0, 0) == 'G');
    CHECK(ok->at(2, 0) == 'W');
  }

  TEST_CASE("start == goal is allowed") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    auto scen = parse_movingai_scen("version 1\n0\tm.map\t4\t4\t1\t2\t1\t2\t0\n", "s.scen");
    REQUIRE(scen.ok());
    REQUIRE(scen->size() == 1);
    CHECK((*scen)[0].start == (*scen)[0].goal);
    CHECK((*scen)[0].optimal_length == 0);

    std::size_t same = 0;
    for (const char* name : {"maze512-1-0.map.scen", "random512-10-0.map.scen"}) {
      auto problems = load_movingai_scen(bench_dir() / name);
      REQUIRE(problems.ok());
      for (const MovingAiProblem& p : *problems) {
        if (p.start == p.goal) {
          ++same;
          CHECK(p.optimal_length == 0);
        }
      }
    }
    CHECK(same == 4);
  }

  TEST_CASE("a file without a version line is read when its first line has 9 fields") {
    auto scen = parse_movingai_scen("3\tm.map\t4\t4\t0\t0\t3\t3\t4.24264069\n", "n.scen");
    REQUIRE_MESSAGE(scen.ok(), scen.error().to_string());
    REQUIRE(scen->size() == 1);
    CHECK((*scen)[0].line == 1);
    CHECK((*scen)[0].bucket == 3);

    auto header_only = parse_movingai_scen("version 1\n", "e.scen");
    REQUIRE(header_only.ok());
    CHECK(header_only->empty());
  }

  TEST_CASE("the map of a problem is found by its base name, next to the scen file") {
    MovingAiProblem p;
    const fs::path scen = fs::path("data") / "sets" / "arena2.map.scen";
    for (const char* field :
         {"maps/dao/arena2.map", "arena2.map", "maps\\dao\\arena2.map", "/abs/elsewhere/arena2.map"}) {
      CAPTURE(field);
      p.map_name = field;
      CHECK(scen_map_path(scen, p) == fs::path("data") / "sets" / "arena2.map");
    }
    p.map_name = "maps/bgmaps/AR0011SR.map";
    CHECK(scen_map_path("AR0011SR.map.scen", p) == fs::path("AR0011SR.map"));
  }

  TEST_CASE("collect_scen_files: directories are listed, sorted, files are taken as given") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    auto all = collect_scen_files({bench_dir()});
    REQUIRE_MESSAGE(all.ok(), all.error().to_string());
    REQUIRE(all->size() == 12);
    CHECK(std::is_sorted(all->begin(), all->end()));
    for (const fs::path& path : *all) CHECK(path.extension() == ".scen");

    const fs::path one = bench_dir() / "den312d.map.scen";
    auto mixed = collect_scen_files({one, bench_dir()});
    REQUIRE(mixed.ok());
    REQUIRE(mixed->size() == 13);
    CHECK(mixed->front() == one);

    const fs::path missing = bench_dir() / "no-such.scen";
    auto error = collect_scen_files({bench_dir(), missing});
    REQUIRE_FALSE(error.ok());
    CHECK(error.error().code == ErrorCode::Io);
    CHECK(error.error().where == missing.string());
  }

  TEST_CASE("a missing file is an Io error naming the file") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    const fs::path missing = bench_dir() / "no-such.map";
    auto map = load_movingai_map(missing);
    REQUIRE_FALSE(map.ok());
    CHECK(map.error().code == ErrorCode::Io);
    CHECK(map.error().where == missing.string());
    auto scen = load_movingai_scen(bench_dir() / "no-such.scen");
    REQUIRE_FALSE(scen.ok());
    CHECK(scen.error().code == ErrorCode::Io);
    auto dir = load_movingai_map(bench_dir());
    REQUIRE_FALSE(dir.ok());
    CHECK(dir.error().code == ErrorCode::Io);
  }

  // ---------------------------------------------------------------------------------------
  // Broken .map files

  TEST_CASE("broken map: missing header fields") {
    check_error(map_error("height 1\nwidth 1\nmap\n.\n"), "t.map:3", {"missing", "type octile"});
    check_error(map_error("type octile\nwidth 1\nmap\n.\n"), "t.map:3", {"missing", "height"});
    check_error(map_error("type octile\nheight 1\nmap\n.\n"), "t.map:3", {"missing", "width"});
    check_error(map_error("type octile\nheight 1\nwidth 1\n"), "t.map:3", {"missing", "\"map\""});
    check_error(map_error(""), "t.map:1", {"missing", "\"map\""});
  }

  TEST_CASE("broken map: duplicate header field") {
    check_error(map_error("type octile\nheight 1\nwidth 1\nheight 2\nmap\n.\n"), "t.map:4",
                {"duplicate", "height", "line 2"});
    check_error(map_error("type octile\ntype octile\n"), "t.map:2", {"duplicate", "type"});
  }

  TEST_CASE("broken map: unknown header line and wrong type") {
    check_error(map_error("type octile\ndepth 3\n"), "t.map:2",
                {"unknown header line", "\"depth 3\"", "expected"});
    check_error(map_error("type hex\nheight 1\nwidth 1\nmap\n.\n"), "t.map:1",
                {"type hex", "expected \"type octile\""});
    check_error(map_error("type octile\nheight 1\nwidth 1\nmap extra\n.\n"), "t.map:4", {"\"map\" alone"});
  }

  TEST_CASE("broken map: non-numeric size") {
    check_error(map_error("type octile\nheight abc\nwidth 1\nmap\n.\n"), "t.map:2",
                {"height", "expected an integer", "\"abc\""});
    check_error(map_error("type octile\nheight 1\nwidth 2.5\nmap\n..\n"), "t.map:3",
                {"width", "expected an integer", "\"2.5\""});
    check_error(map_error("type octile\nheight\nwidth 1\nmap\n.\n"), "t.map:2", {"height <integer>"});
  }

  TEST_CASE("broken map: size out of range") {
    const Error zero = map_error("type octile\nheight 0\nwidth 1\nmap\n");
    check_error(zero, "t.map:2", {"height", "0 is out of range", "1..8192"});
    CHECK(zero.code == ErrorCode::Value);
    check_error(map_error("type octile\nheight 1\nwidth -4\nmap\n"), "t.map:3", {"width", "-4", "1..8192"});
    const Error big = map_error("type octile\nheight 1\nwidth 8193\nmap\n");
    check_error(big, "t.map:3", {"width", "8193", "1..8192"});
    CHECK(big.code == ErrorCode::Limit);
  }

  TEST_CASE("broken map: wrong row length names the row") {
    check_error(map_error("type octile\nheight 3\nwidth 4\nmap\n....\n...\n....\n"), "t.map:6",
                {"row 1 has 3 cells, expected 4"});
    check_error(map_error("type octile\nheight 2\nwidth 2\nmap\n..\n...\n"), "t.map:6",
                {"row 1 has 3 cells, expected 2"});
    // A blank line in the middle of the rows is a row of 0 cells.
    check_error(map_error("type octile\nheight 2\nwidth 2\nmap\n\n..\n"), "t.map:5",
                {"row 0 has 0 cells, expected 2"});
  }

  TEST_CASE("broken map: wrong row count") {
    check_error(map_error("type octile\nheight 3\nwidth 2\nmap\n..\n..\n"), "t.map:6",
                {"2 rows", "expected 3"});
    check_error(map_error("type octile\nheight 1\nwidth 2\nmap\n"), "t.map:4", {"0 rows", "expected 1"});
    check_error(map_error("type octile\nheight 1\nwidth 2\nmap\n..\n..\n"), "t.map:6",
                {"extra row 1", "expected 1 rows"});
    check_error(map_error("type octile\nheight 1\nwidth 2\nmap\n..\n\n@@\n"), "t.map:7", {"extra row"});
  }

  TEST_CASE("broken map: unknown character names line and column") {
    check_error(map_error("type octile\nheight 2\nwidth 4\nmap\n....\n..x.\n"), "t.map:6",
                {"column 3", "x = 2, y = 1", "unknown map character 'x'", "expected one of"});
    check_error(map_error("type octile\nheight 1\nwidth 3\nmap\n.\t.\n"), "t.map:5", {"column 2", "\\x09"});
  }

  // ---------------------------------------------------------------------------------------
  // Broken .scen files

  TEST_CASE("broken scen: version line") {
    check_error(scen_error("version 2\n"), "x.scen:1",
                {"unsupported version", "\"version 2\"", "expected \"version 1\""});
    check_error(scen_error("version\n"), "x.scen:1", {"unsupported version"});
    check_error(scen_error("\n\nhello world\n"), "x.scen:3",
                {"expected a \"version 1\" header", "\"hello world\""});
    check_error(scen_error(""), "x.scen:1", {"empty file", "version 1"});
    check_error(scen_error("\n  \n"), "x.scen:2", {"empty file"});
  }

  TEST_CASE("broken scen: wrong number of fields") {
    check_error(scen_error("version 1\n0\tm.map\t4\t4\t0\t0\t1\t1\n"), "x.scen:2",
                {"expected 9 fields", "got 8"});
    check_error(scen_error("version 1\n0\tm.map\t4\t4\t0\t0\t1\t1\t1\t1\t1\t1\n"), "x.scen:2",
                {"expected 9 fields", "got 12"});
  }

  TEST_CASE("broken scen: non-integer fields") {
    std::string text = "version 1\n";
    for (int i = 0; i < 10; ++i) text += "0\tm.map\t4\t4\t0\t0\t1\t1\t1.41421356\n";
    text += "0\tm.map\t4\t4\ta\t0\t1\t1\t1\n";
    const Error error = scen_error(text);
    check_error(error, "x.scen:12", {});
    CHECK(error.to_string() == "x.scen:12: field 5 (start_x): expected an integer, got \"a\"");
    check_error(scen_error("version 1\nb\tm.map\t4\t4\t0\t0\t1\t1\t1\n"), "x.scen:2",
                {"field 1 (bucket)", "expected an integer", "\"b\""});
    check_error(scen_error("version 1\n0\tm.map\t4.0\t4\t0\t0\t1\t1\t1\n"), "x.scen:2",
                {"field 3 (map_width)", "expected an integer", "\"4.0\""});
    check_error(scen_error("version 1\n0\tm.map\t4\t4\t0\t0\t1\t+1\t1\n"), "x.scen:2",
                {"field 8 (goal_y)", "\"+1\""});
  }

  TEST_CASE("broken scen: bad length") {
    check_error(scen_error("version 1\n0\tm.map\t4\t4\t0\t0\t1\t1\tlong\n"), "x.scen:2",
                {"field 9 (optimal_length)", "expected a number", "\"long\""});
    check_error(scen_error("version 1\n0\tm.map\t4\t4\t0\t0\t1\t1\t-1\n"), "x.scen:2",
                {"field 9 (optimal_length)", ">= 0", "\"-1\""});
    check_error(scen_error("version 1\n0\tm.map\t4\t4\t0\t0\t1\t1\tinf\n"), "x.scen:2",
                {"field 9", "finite"});
    check_error(scen_error("version 1\n0\tm.map\t4\t4\t0\t0\t1\t1\t1.5x\n"), "x.scen:2",
                {"field 9", "\"1.5x\""});
  }

  TEST_CASE("broken scen: map size and coordinates outside the declared map") {
    check_error(scen_error("version 1\n0\tm.map\t0\t4\t0\t0\t1\t1\t1\n"), "x.scen:2",
                {"field 3 (map_width)", "0 is out of range"});
    check_error(scen_error("version 1\n0\tm.map\t4\t9000\t0\t0\t1\t1\t1\n"), "x.scen:2",
                {"field 4 (map_height)", "1..8192"});
    check_error(scen_error("version 1\n0\tm.map\t4\t3\t4\t0\t1\t1\t1\n"), "x.scen:2",
                {"field 5 (start_x)", "4 is outside the map", "expected 0..3", "map_width 4"});
    check_error(scen_error("version 1\n0\tm.map\t4\t3\t0\t0\t1\t3\t1\n"), "x.scen:2",
                {"field 8 (goal_y)", "3 is outside the map", "expected 0..2", "map_height 3"});
    check_error(scen_error("version 1\n0\tm.map\t4\t3\t0\t-1\t1\t1\t1\n"), "x.scen:2",
                {"field 6 (start_y)", "-1"});
  }

}  // TEST_SUITE
