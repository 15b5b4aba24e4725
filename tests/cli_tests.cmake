# End-to-end tests of the `pathscope` headless commands: exit codes and messages.
set(PS $<TARGET_FILE:pathscope>)
set(DATA ${PROJECT_SOURCE_DIR}/tests/data)
set(BENCH ${PROJECT_SOURCE_DIR}/../shared/benchmarks/movingai)

# A command that reads the shared Moving AI benchmarks (named on its command line, or
# `bench sim --random`, whose default map is Berlin_1_256 there) is skipped, with a
# message, when they are absent (tests/expect_run.cmake).
function(pathscope_cli_test name exit regex)
  set(needs "")
  if("${ARGN}" MATCHES "shared/benchmarks|--random")
    set(needs "-DNEEDS=${BENCH}")
  endif()
  add_test(NAME cli.${name}
           COMMAND ${CMAKE_COMMAND} "-DCMD=${ARGN}" -DEXPECT_EXIT=${exit} "-DEXPECT_REGEX=${regex}" ${needs}
                   -P ${PROJECT_SOURCE_DIR}/tests/expect_run.cmake
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(cli.${name} PROPERTIES SKIP_REGULAR_EXPRESSION "pathscope-skip:")
endfunction()

pathscope_cli_test(solve_default 0 "query 0.*found" ${PS} solve maps/default.json)
pathscope_cli_test(solve_json 0 "\"status\":\"found\".*\"micros\".*\"points\":\\[\\[[0-9.]+,[0-9.]+\\]" ${PS} solve maps/default.json --json --query 0)
# `pathscope verify`: the path referee on every query (planner/referee/): grid A*'s paths on
# maps/default.json cost what it reports and are legal; JSON has the fields; a bad planner
# name is bad usage.
pathscope_cli_test(verify_default 0 "query 0 .*astar +found +reported [0-9.]+ +referee [0-9.]+ +legal +ratio 1\\.0000 +ok.*paths refereed: 0 costs disagree \\(tolerance 1e-06 relative\\), 0 illegal"
                   ${PS} verify maps/default.json --planner astar)
pathscope_cli_test(verify_json 0 "\"planner\":\"quadtree\".*\"reported_cost\":[0-9.]+,\"referee_cost\":[0-9.]+.*\"legal\":true"
                   ${PS} verify maps/default.json --planner quadtree --json)
pathscope_cli_test(verify_unknown_planner 2 "unknown planner \"nope\"" ${PS} verify maps/default.json --planner nope)
pathscope_cli_test(solve_bad_syntax 1 "bad_syntax.json:3:[0-9]+: syntax error" ${PS} solve ${DATA}/bad_syntax.json)
pathscope_cli_test(solve_self_intersecting 1 "features\\[0\\]\\.points: self-intersecting" ${PS} solve ${DATA}/bad_self_intersecting.json)
pathscope_cli_test(solve_missing_file 1 "no_such_file.json" ${PS} solve ${DATA}/no_such_file.json)
pathscope_cli_test(solve_bad_map_char 1 "bad_char.map:6: .*unknown map character 'X'" ${PS} solve ${DATA}/bad_char.map)
pathscope_cli_test(solve_unknown_planner 1 "unknown planner \"nope\"" ${PS} solve maps/default.json --planner nope)
pathscope_cli_test(solve_bad_query_index 1 "--query 99" ${PS} solve maps/default.json --query 99)
pathscope_cli_test(usage_unknown_flag 2 "" ${PS} solve --bogus)
pathscope_cli_test(usage_bad_param 2 "expected name=number" ${PS} solve maps/default.json --param weight)
pathscope_cli_test(movingai_ok 0 "2 queries, 0 mismatches" ${PS} movingai ${DATA}/ok.scen)
pathscope_cli_test(movingai_mismatch 1 "1 queries, 1 mismatches" ${PS} movingai ${DATA}/wrong_length.scen)
pathscope_cli_test(movingai_bad_field 1 "bad_field.scen:2: field 8 \\(goal_y\\): expected an integer" ${PS} movingai ${DATA}/bad_field.scen)
pathscope_cli_test(solve_jps_refuses_terrain_costs 0 "jps +invalid.*jps needs uniform costs, but class \"infantry\" has terrain costs.*use astar"
                   ${PS} solve maps/default.json --planner jps)
pathscope_cli_test(solve_jps_rooms 0 "corner to corner\"  jps +found.*jps +found.*jps +found" ${PS} solve maps/jps_rooms.json)
pathscope_cli_test(movingai_jps_den312d 0 "320 queries, 0 mismatches" ${PS} movingai ${BENCH}/den312d.map.scen --planner jps)
pathscope_cli_test(movingai_inexact_ratio 0 "0 mismatches" ${PS} movingai ${BENCH}/den312d.map.scen --planner weighted_astar --max-ratio 1.5)
pathscope_cli_test(convert_round_trip 0 "wrote .*ok_converted.json" ${PS} convert ${DATA}/ok.map ${CMAKE_CURRENT_BINARY_DIR}/ok_converted.json --scen ${DATA}/ok.scen)
pathscope_cli_test(convert_pick_longest 0 "wrote .*16 queries" ${PS} convert ${BENCH}/den312d.map ${CMAKE_CURRENT_BINARY_DIR}/den_longest.json --scen ${BENCH}/den312d.map.scen --pick longest)
pathscope_cli_test(convert_bad_pick 2 "--pick nearest: expected first, spread or longest" ${PS} convert ${DATA}/ok.map ${CMAKE_CURRENT_BINARY_DIR}/ok_bad_pick.json --scen ${DATA}/ok.scen --pick nearest)
pathscope_cli_test(edit_bench_default 0 "3 queries, 6 edits.*re-plan.*edits within one 60 Hz frame" ${PS} edit-bench maps/default.json --edits 6 --size 320x200)
pathscope_cli_test(edit_bench_missing_file 1 "no_such_file.json" ${PS} edit-bench ${DATA}/no_such_file.json)
pathscope_cli_test(edit_bench_bad_size 2 "--size 0x5" ${PS} edit-bench maps/default.json --size 0x5)
pathscope_cli_test(bench_world_small 0 "256 x 256 cells.*3 queries.*build [0-9]+ ms.*solve [0-9.]+ ms.*peak memory .* bytes per cell" ${PS} bench world --size 256)
pathscope_cli_test(bench_world_classes 0 "3 movement classes.*class wheeled +found" ${PS} bench world maps/default.json --size 200 --classes 3)
pathscope_cli_test(bench_world_bad_classes 2 "--classes 9: .* has 5 movement classes" ${PS} bench world --size 64 --classes 9)
pathscope_cli_test(bench_world_bad_size 2 "--size" ${PS} bench world --size 9000)
pathscope_cli_test(version 0 "^pathscope ${PROJECT_VERSION}" ${PS} --version)
pathscope_cli_test(render_says_what_it_wrote 0 "wrote .*render_wrote\\.png \\(160x100\\)"
                   ${PS} render maps/default.json --out ${CMAKE_CURRENT_BINARY_DIR}/render_wrote.png --size 160x100)

# `pathscope FILE` is `pathscope open FILE`: with no display it gets as far as the
# window's message, not a usage error; with SDL's dummy video driver the window runs its
# frames and closes (settings go to the build tree; leak checks off as for
# app.window_smoke). Sub-command names still name sub-commands.
pathscope_cli_test(open_positional_no_display 1 "cannot open a window \\(no display\\)" ${PS} maps/default.json)
set_tests_properties(cli.open_positional_no_display PROPERTIES ENVIRONMENT_MODIFICATION
                     "DISPLAY=unset:;WAYLAND_DISPLAY=unset:;SDL_VIDEODRIVER=unset:")
pathscope_cli_test(open_positional_dummy_video 0 "" ${PS} maps/default.json --quit-after-frames 3)
set_tests_properties(cli.open_positional_dummy_video PROPERTIES TIMEOUT 60 ENVIRONMENT
                     "SDL_VIDEODRIVER=dummy;PATHSCOPE_CONFIG_DIR=${CMAKE_CURRENT_BINARY_DIR}/cli_open_config;ASAN_OPTIONS=detect_leaks=0")
pathscope_cli_test(open_positional_then_subcommand 2 "maps/default.json before `solve`"
                   ${PS} maps/default.json solve maps/default.json)
pathscope_cli_test(open_positional_two_files 2 "not expected" ${PS} maps/default.json maps/large_1024.json)

# The full ground truth (25,587 problems) for grid A* and JPS: release build only.
# COST (about their seconds) starts the long runs first, so the short tests fill the
# other core around them.
foreach(planner astar jps)
  pathscope_cli_test(movingai_full_${planner} 0 "25587 queries, 0 mismatches" ${PS} movingai ${BENCH} --planner ${planner})
  set_tests_properties(cli.movingai_full_${planner} PROPERTIES LABELS slow COST 100)
endforeach()
# Dijkstra and the bidirectional search (the slowest to answer, about four times A*'s
# time), and the block-based and preprocessed jump point searches (checked on all 25,587
# when they were written; 47 s each), on every fourth problem of each file: a sample of
# every length on every map.
foreach(planner bidirectional dijkstra jps_block jps_plus)
  pathscope_cli_test(movingai_full_${planner} 0 "6400 queries, 0 mismatches" ${PS} movingai ${BENCH} --planner ${planner} --every 4)
  set_tests_properties(cli.movingai_full_${planner} PROPERTIES LABELS slow COST 100)
endforeach()

# The quadtree planner on the whole shared set: every path found and at most 1.05 times
# the optimum (the quadtree's quality target); about 3 minutes in a release build.
pathscope_cli_test(movingai_full_quadtree 0 "25587 queries, 0 mismatches" ${PS} movingai ${BENCH} --planner quadtree --max-ratio 1.05)
set_tests_properties(cli.movingai_full_quadtree PROPERTIES LABELS slow COST 200)

# `pathscope bench quadtree` on maps/armada.json, quickly (one run per timing, two update
# places): the figures are printed in their format and the update equals a rebuild.
pathscope_cli_test(bench_quadtree_armada 0
                   "map armada\\.json: 128 x 128 cells, 5 queries.*leaves [0-9]+, uniform cells 16384, cells per leaf [0-9.]+.*links [0-9]+ \\(one-way [0-9]+\\), regions [0-9]+, build [0-9.]+ ms.*region insertion \\(seed 000's top-down build\\) [0-9.]+ ms: 20 regions.*same leaves as the bottom-up build: yes.*query 0 \\(cruiser\\): quadtree found, [0-9]+ expansions, [0-9.]+ us; astar found, [0-9]+ expansions, [0-9.]+ us; search cost [0-9.]+, length centres [0-9.]+, step 1 [0-9.]+, final [0-9.]+, astar [0-9.]+.*fewer expansions.*less time.*update: 512 x 512 cells.*incremental [0-9.]+ ms.*full rebuild [0-9.]+ ms; rebuild / incremental [0-9.]+x.*equal to a full rebuild: yes"
                   ${PS} bench quadtree maps/armada.json --repeat 1 --edits 2)
# The Armada figures docs/benchmarks/quadtree.md and planner/quadtree/README.md claim (counts
# only: they are deterministic; times are not asserted): 1,750 leaves, 7,484 links for the
# escort, 627 expansions against A*'s 12,306 (19.6x fewer), final length 0.92 to 0.97 of A*'s.
pathscope_cli_test(bench_quadtree_armada_claims 0
                   "class escort: leaves 1750, uniform cells 16384, cells per leaf 9\\.36.*class escort: links 7484 \\(one-way 198\\).*final / astar 0\\.9[2-7][0-9]*\\).*final / astar 0\\.9[2-7][0-9]*\\).*final / astar 0\\.9[2-7][0-9]*\\).*final / astar 0\\.9[2-7][0-9]*\\).*final / astar 0\\.9[2-7][0-9]*\\).*5 queries found by both: quadtree 627 expansions, [0-9.]+ us; astar 12306 expansions, [0-9.]+ us; 19\\.6x fewer expansions"
                   ${PS} bench quadtree maps/armada.json --repeat 1 --edits 0)
pathscope_cli_test(bench_quadtree_both_inputs 2 "not both" ${PS} bench quadtree maps/armada.json --movingai ${BENCH}/den312d.map.scen)
pathscope_cli_test(bench_quadtree_bad_param 2 "--param weight: expected a number in \\[1, 10\\], got 0.5" ${PS} bench quadtree maps/armada.json --param weight=0.5)

# The visgraph planner (radius 0) on a Moving AI map: every path found and no longer than
# the octile optimum; and `pathscope bench visgraph`, quickly, on random rectangles and on
# that map.
pathscope_cli_test(movingai_visgraph_den312d 0 "320 queries, 0 mismatches" ${PS} movingai ${BENCH}/den312d.map.scen --planner visgraph --param radius=0 --max-ratio 1.0)
# `pathscope bench navmesh` at 64 x 64 cells: every figure in its JSON, and the updated mesh
# equal to a fresh build; a map too small is bad usage.
pathscope_cli_test(bench_navmesh_small 0
                   "\"size\":64,\"seed\":3,\"edits\":5,\"edit_cells\":3,\"tiles\":1,\"polygons\":[0-9]+,\"full_build_s\":[0-9.e-]+,\"update_median_ms\":[0-9.e-]+,\"update_p95_ms\":[0-9.e-]+,\"tiles_rebuilt_per_edit\":1\.0,\"tiles_rebuilt_max\":1,\"fresh_build_s\":[0-9.e-]+,\"queries\":8,\"query_mismatches\":0,\"polygon_mismatches\":0,\"equal_to_fresh_build\":true,\"buildings\":"
                   ${PS} bench navmesh --size 64 --edits 5 --seed 3 --json)
# The buildings row: 4 buildings built and destroyed on a 128 x 128 town map (4 tiles), each
# edit applied by the navmesh's update and by Detour's tile cache; both meshes get their
# polygons back once every building is gone, and every query is answered (found or not)
# by both.
pathscope_cli_test(bench_navmesh_buildings 0
                   "\"buildings\":{\"buildings\":4,\"edits\":8,\"tiles\":4,\"navmesh\":{\"build_s\":[0-9.e-]+,\"median_us\":[0-9.e-]+,\"p95_us\":[0-9.e-]+,\"tiles_rebuilt_per_edit\":[0-9.e-]+,\"tiles_rebuilt_max\":[1-4],\"polygons_before\":[0-9]+,\"polygons_after\":[0-9]+,\"restored\":true},\"tile_cache\":{\"build_s\":[0-9.e-]+,\"median_us\":[0-9.e-]+,\"p95_us\":[0-9.e-]+,\"tiles_rebuilt_per_edit\":[0-9.e-]+,\"tiles_rebuilt_max\":[1-4],\"polygons_before\":[0-9]+,\"polygons_after\":[0-9]+,\"restored\":true},\"ratio_median\":[0-9.e-]+,\"ratio_p95\":[0-9.e-]+,\"queries\":32,"
                   ${PS} bench navmesh --size 128 --edits 2 --queries 2 --seed 3 --buildings 4 --json)
pathscope_cli_test(bench_navmesh_bad_size 2 "--size" ${PS} bench navmesh --size 8)
# `pathscope bench conformance` on 6 worlds: every planner's row, no violation (grid A*'s
# replays equal its live runs, 12 answers kept after edits and 6 voided, none stale, no
# structure view over budget); then 5 uniform worlds with radius 0: visgraph's 15 paths
# within its bound of 1.05, tactical skipped with its reason; an unknown planner is
# refused naming it.
pathscope_cli_test(bench_conformance_quick 0
                   "worlds 0-5, 3 queries each.*astar +18 +18 +0 +0 +0 +0 +0 +0 +1\\.000 +1\\.0000 +0 +[0-9.e+-]+ +0 +12 +6 +0 +0[^0-9].*hybrid +18 .*navmesh +18 .*uniform cost, radius 0: worlds 0-4.*astar +15 +15 +0 +0 +0 +0 +1\\.000 +15 +1\\.0000 +1\\.0000 +0 +0 .*visgraph +15 +15 +0 +0 +0 +0 +1\\.050 +15 +0\\.[0-9]+ +(0|1)\\.[0-9]+ +0 +0 .*tactical +skipped: its cost is threat-weighted exposure.*navmesh +15 .*[^0-9]0 violations"
                   ${PS} bench conformance --worlds 6 --first 0 --queries 3 --uniform-worlds 5)
pathscope_cli_test(bench_conformance_unknown 1 "unknown planner \"nope\"" ${PS} bench conformance --planner nope)
# A planner family added as a folder and nothing else (the test-only straight/ family,
# tests/planner/registry/families/): listed among the known planners, run by `solve` and
# `verify`, and covered by the conformance suite with the library's families.
set(PS_FAMILY $<TARGET_FILE:pathscope_with_test_family>)
pathscope_cli_test(test_family_listed 1 "unknown planner \"nope\" \\(known: \"astar\", .*\"navmesh\", \"straight\"\\)"
                   ${PS_FAMILY} solve tests/data/smoke.json --planner nope)
pathscope_cli_test(test_family_solve 0 "query 0 \"straight east\" +straight +found +length 48\\.000000 +cost 48\\.000000"
                   ${PS_FAMILY} solve tests/data/smoke.json --planner straight)
pathscope_cli_test(test_family_verify 0 "straight +found +reported 48\\.0+ +referee 48\\.0+ +legal.*0 costs disagree"
                   ${PS_FAMILY} verify tests/data/smoke.json --planner straight)
pathscope_cli_test(test_family_conformance 0 "astar +18 +18 .*navmesh +18 .*straight +18 +[0-9]+ .*straight +skipped: its entry declares no radius-0 uniform bound.*[^0-9]0 violations"
                   ${PS_FAMILY} bench conformance --worlds 6 --first 0 --queries 3 --uniform-worlds 5)
pathscope_cli_test(bench_visgraph_quick 0
                   "random rectangles for ~400 corners: .*[0-9]+ corners, [0-9]+ links, .*graph [0-9.]+ ms \\(build [0-9.]+ ms in all\\).*5 random queries: 5 found, median [0-9.]+ us.*limits k_nearest=16: [0-9]+ links kept.*limits max_link=[0-9.]+: [0-9]+ links kept, median [0-9.]+ us, [0-9.]+ expansions, [0-9]+ paths lost, length / unlimited mean [0-9.]+, largest [0-9.]+.*3 buildings placed and destroyed: update [0-9.]+ ms, full rebuild [0-9.]+ ms.*equal to a full rebuild: yes"
                   ${PS} bench visgraph --corners 400 --queries 5 --edits 3)
pathscope_cli_test(bench_visgraph_roads 0
                   "maps/default\\.json: 128 x 96 m, 1 roads.*class wheeled: road network [0-9]+ points, [0-9]+ links.*20 queries, 20 found; mean cost: no roads [0-9.]+, pass [0-9.]+, exact [0-9.]+.*exact / pass: mean 0\\.9[0-9]+"
                   ${PS} bench visgraph --roads maps/default.json --queries 20)
pathscope_cli_test(bench_visgraph_movingai 0 "den312d\\.map: 65 x 81 cells, radius 0.*20 problems: 20 found.*0 above the optimum"
                   ${PS} bench visgraph --movingai ${BENCH}/den312d.map.scen --queries 20)

# `pathscope bench tactical`, quickly: seed 001's six scenarios load and run in the three
# modes beside the seed's figures, and 20 placements per agent count give a distribution.
pathscope_cli_test(bench_tactical_quick 0
                   "tactical_1v1_512\\.json +512 +2 \\| bsts-join +[0-9]+ +[0-9.]+% +[0-9.]+ +[0-9.]+ +\\| 100 of 512, 19\\.5%.*\\| bsts +[0-9]+ +[0-9.]+% +[0-9.]+ +[0-9.]+ +[0-9.]+ \\|.*admissible.*exact +[0-9]+ +[0-9.]+% +[0-9.]+ +1\\.0000.*tactical_4v4_8192\\.json +8192 +8 \\| bsts-join.*1600 of 8192, 19\\.5%.*placements: 20 per agent count.*1 threat\\(s\\) \\+ 1 ally\\(ies\\): 20 placements.*bsts cost / exact: min [0-9.]+, median [0-9.]+.*within 10% [0-9.]+%.*coarse cost / exact: min [0-9.]+.*4 threat\\(s\\) \\+ 4 ally\\(ies\\)"
                   ${PS} bench tactical --repeat 1 --placements 20)
# The paper's tables as docs/benchmarks/tactical.md and planner/tactical/README.md give them
# (cells explored and cost / exact per mode and field, BSTS's search alone and with the
# repair: deterministic).
pathscope_cli_test(bench_tactical_table_claims 0
                   "tactical_1v1_512\\.json +512 +[28] \\| bsts-join +165 +32\\.2% +[0-9.]+ +1\\.2588 .*\\| bsts +213 +41\\.6% +[0-9.]+ +1\\.2258.*waypoint +122 +23\\.8% +[0-9.]+ +1\\.0000.*coarse +35 +6\\.8% +[0-9.]+ +1\\.0000.*admissible +299 +58\\.4% +[0-9.]+ +1\\.0000.*tactical_1v1_2048\\.json +2048 +[28] \\| bsts-join +125 +6\\.1% +[0-9.]+ +1\\.8168 .*\\| bsts +217 +10\\.6% +[0-9.]+ +1\\.8151.*waypoint +356 +17\\.4% +[0-9.]+ +1\\.0000.*coarse +263 +12\\.8% +[0-9.]+ +1\\.0000.*admissible +1122 +54\\.8% +[0-9.]+ +1\\.0000.*tactical_1v1_8192\\.json +8192 +[28] \\| bsts-join +1114 +13\\.6% +[0-9.]+ +1\\.8021 .*\\| bsts +1261 +15\\.4% +[0-9.]+ +1\\.7839.*waypoint +1190 +14\\.5% +[0-9.]+ +1\\.0000.*coarse +371 +4\\.5% +[0-9.]+ +1\\.0000.*admissible +4587 +56\\.0% +[0-9.]+ +1\\.0000.*tactical_4v4_512\\.json +512 +[28] \\| bsts-join +40 +7\\.8% +[0-9.]+ +1\\.1316 .*\\| bsts +124 +24\\.2% +[0-9.]+ +1\\.0000.*waypoint +128 +25\\.0% +[0-9.]+ +1\\.0000.*coarse +55 +10\\.7% +[0-9.]+ +1\\.0000.*admissible +471 +92\\.0% +[0-9.]+ +1\\.0000.*tactical_4v4_2048\\.json +2048 +[28] \\| bsts-join +89 +4\\.3% +[0-9.]+ +1\\.8671 .*\\| bsts +213 +10\\.4% +[0-9.]+ +1\\.7563.*waypoint +329 +16\\.1% +[0-9.]+ +1\\.0000.*coarse +306 +14\\.9% +[0-9.]+ +1\\.0006.*admissible +1952 +95\\.3% +[0-9.]+ +1\\.0000.*tactical_4v4_8192\\.json +8192 +[28] \\| bsts-join +162 +2\\.0% +[0-9.]+ +1\\.3342 .*\\| bsts +413 +5\\.0% +[0-9.]+ +1\\.2963.*waypoint +1025 +12\\.5% +[0-9.]+ +1\\.0005.*coarse +1339 +16\\.3% +[0-9.]+ +1\\.0267.*admissible +7782 +95\\.0% +[0-9.]+ +1\\.0000"
                   ${PS} bench tactical --repeat 1 --placements 0)
# Their random placements (1,000 per agent count, seed 1): within 10% of the optimum, BSTS
# 90.7% / 50.2%, waypoint 99.5% / 95.9%, coarse 100% / 100%. Release only (slow).
pathscope_cli_test(bench_tactical_placements_claims 0
                   "1 threat\\(s\\) \\+ 1 ally\\(ies\\): 1000 placements.*bsts cost.*optimal \\(<= 1\\.000001\\) 52\\.6%, within 5% [0-9.]+%, within 10% 90\\.7%; explored mean 21\\.8%.*waypoint cost.*within 10% 99\\.5%.*coarse cost.*within 10% 100\\.0%.*bsts-join \\(the seed's search, no repair\\): cost / exact median 1\\.0112.*explored mean 19\\.0%; fewer cells than admissible in 987 of 1000, than exact in 1000 of 1000.*explored mean: admissible 50\\.0%, exact 97\\.4%.*4 threat\\(s\\) \\+ 4 ally\\(ies\\): 1000 placements.*bsts cost.*optimal \\(<= 1\\.000001\\) 10\\.1%, within 5% [0-9.]+%, within 10% 50\\.2%; explored mean 13\\.5%.*waypoint cost.*within 10% 95\\.9%.*coarse cost.*within 10% 100\\.0%.*bsts-join \\(the seed's search, no repair\\): cost / exact median 1\\.1803.*explored mean 7\\.8%; fewer cells than admissible in 1000 of 1000, than exact in 1000 of 1000.*explored mean: admissible 74\\.6%, exact 94\\.4%"
                   ${PS} bench tactical --repeat 1 --placements 1000)
set_tests_properties(cli.bench_tactical_placements_claims PROPERTIES LABELS slow)
pathscope_cli_test(bench_tactical_mode_param 1 "--param mode: the bench runs every mode" ${PS} bench tactical --param mode=1)
pathscope_cli_test(bench_tactical_bad_constants 1 "c1 \\+ c2 must equal 1" ${PS} bench tactical --param c1=0.5 --placements 0)

# Fog of war (maps/fog_of_war.json): blue plans on what it believes (through the wall it
# has not seen, round the one it remembers), the same trip on the world as it is is
# straight; --faction plans any query as a faction; an unknown faction is refused.
pathscope_cli_test(fog_solve 0
                   "query 0 \"blue, as it believes\" +visgraph +found +length 171\\.[0-9]+.*query 1 \"the same, as it is\" +visgraph +found +length 104\\.000000.*query 2 \"blue, grid A\\*\" +astar +found +length 18[0-9]\\."
                   ${PS} solve maps/fog_of_war.json)
pathscope_cli_test(fog_solve_as_faction 0 "\"faction\":\"blue\".*\"length\":171\\.[0-9]+"
                   ${PS} solve maps/fog_of_war.json --query 1 --faction blue --json)
pathscope_cli_test(fog_solve_unknown_faction 2 "--faction: no faction \"green\"" ${PS} solve maps/fog_of_war.json --faction green)

# Containers (maps/walled_compound.json): the compound's wall bounds walkable space; the
# grid's expected length is the octile optimum of a reference Dijkstra written apart
# (over the coverage rule), the radius-0 visibility path's the any-angle length by hand.
pathscope_cli_test(compound_solve 0
                   "query 0 .*visgraph +found.*query 1 .*astar +found +length 101\\.39697[0-9].*expected 101\\.396970: ok.*query 2 .*visgraph +found.*query 3 .*visgraph +found +length 95\\.21240[0-9]"
                   ${PS} solve maps/walled_compound.json)

# Bridges under fog of war (maps/stale_bridge.json): blue has not seen the north bridge
# destroyed and plans over it (60 m straight); the world as it is goes through the ford.
pathscope_cli_test(stale_bridge_solve 0
                   "query 0 \"blue, as it believes\" +visgraph +found +length 60\\.000000.*query 1 \"the same, as it is\" +visgraph +found +length 97\\.8[0-9]+.*query 2 \"blue, grid A\\*\" +astar +found +length 60\\.[0-9]+ +cost 60\\.000000"
                   ${PS} solve maps/stale_bridge.json)

# A picked node's links (render --pick X,Y): the corner at the end of the compound's wall
# between the wings sees five corners; a point with no node is refused.
pathscope_cli_test(render_pick_links 0 "picked point [0-9]+: 3 links.*wrote"
                   ${PS} render maps/walled_compound.json --planner visgraph --layers all --pick 58.5,29.5 --size 320x200
                   --out ${CMAKE_CURRENT_BINARY_DIR}/pick_links.png)
pathscope_cli_test(render_pick_nothing 1 "--pick 200,200: no node of the planner there"
                   ${PS} render maps/walled_compound.json --planner visgraph --pick 200,200 --size 320x200
                   --out ${CMAKE_CURRENT_BINARY_DIR}/pick_nothing.png)
pathscope_cli_test(render_pick_bad 2 "--pick 3: expected X,Y in metres"
                   ${PS} render maps/walled_compound.json --pick 3 --out ${CMAKE_CURRENT_BINARY_DIR}/pick_bad.png)

# `pathscope bench grid`: our grid planners on Moving AI problems (quickly, without
# warthog; weighted A* with its default parameters, checked against --max-ratio), and a
# warthog binary that cannot run is reported, naming the option.
pathscope_cli_test(bench_grid_den312d 0 "den312d +astar +20 +0 .*den312d +weighted_astar +20 +0 .*astar: 0 mismatches"
                   ${PS} bench grid ${BENCH}/den312d.map.scen --planner astar,weighted_astar --max-ratio 1.5 --limit 20 --repeat 1)
pathscope_cli_test(bench_grid_bad_warthog 1 "--warthog: .*no_such_warthog.* exited with status"
                   ${PS} bench grid ${BENCH}/den312d.map.scen --limit 5 --repeat 1 --warthog ${DATA}/no_such_warthog)

# `pathscope simulate`: the run's figures, one JSON object; the same state hash in every
# build (release and sanitizers run this same test); bad files named.
pathscope_cli_test(simulate_json 0 "\"steps\":300,.*\"units\":16,.*\"hard_overlaps\":0,.*\"tunnelled\":0,\"inside_walls\":0,.*\"state_hash\":\"[0-9a-f]+\",\"micros_per_unit_step\""
                   ${PS} simulate maps/sim_bridge.json --steps 300 --json)
# The golden state hash: the simulation's whole state after 300 fixed steps of
# maps/sim_bridge.json, equal in release and sanitizer builds. Any change to what the
# simulation computes (movement, collision, cooperation, passages, bridges, the order of
# floating-point operations, the state's serialisation into the hash) changes it; a change
# that should not move units (a refactor) must leave it alone. When a change is meant to
# alter behaviour, run `build/release/app/pathscope simulate maps/sim_bridge.json --steps
# 300 --json`, check the other figures on that line (arrivals, 0 overlaps, 0 tunnelling)
# and the simulation tests, then put the new `state_hash` here and in the two tests below
# (saved game, recording) in the same commit, saying why it moved.
pathscope_cli_test(simulate_golden_hash 0 "\"state_hash\":\"328393c361c8d7e8\""
                   ${PS} simulate maps/sim_bridge.json --steps 300 --json)
# A saved game after 150 steps, run on for 150 more: the same hash as 300 in one go.
pathscope_cli_test(simulate_save_state 0 "saved game: .*sim_bridge_saved.json \\(step 150\\)"
                   ${PS} simulate maps/sim_bridge.json --steps 150 --save-state ${CMAKE_CURRENT_BINARY_DIR}/sim_bridge_saved.json)
pathscope_cli_test(simulate_saved_game_runs_on 0 "\"steps\":300,.*\"state_hash\":\"328393c361c8d7e8\""
                   ${PS} simulate ${CMAKE_CURRENT_BINARY_DIR}/sim_bridge_saved.json --steps 150 --json)
set_tests_properties(cli.simulate_save_state PROPERTIES FIXTURES_SETUP saved_game)
set_tests_properties(cli.simulate_saved_game_runs_on PROPERTIES FIXTURES_REQUIRED saved_game)
# A recording: every step of the run, the same run (the golden hash) recorded or not.
pathscope_cli_test(simulate_record 0 "\"state_hash\":\"328393c361c8d7e8\""
                   ${PS} simulate maps/sim_bridge.json --steps 300 --json --record ${CMAKE_CURRENT_BINARY_DIR}/sim_bridge.psrec)
pathscope_cli_test(simulate_record_text 0 "recording: .*sim_bridge_text\\.psrec \\(steps 0 to 300, [0-9]+ decisions, [0-9]+ stuck flags"
                   ${PS} simulate maps/sim_bridge.json --steps 300 --record ${CMAKE_CURRENT_BINARY_DIR}/sim_bridge_text.psrec)
pathscope_cli_test(simulate_record_bad_path 1 "no_such_folder/run\\.psrec"
                   ${PS} simulate maps/sim_bridge.json --steps 10 --record ${CMAKE_CURRENT_BINARY_DIR}/no_such_folder/run.psrec)
pathscope_cli_test(simulate_save_state_bad_path 1 "no_such_folder/game\\.json"
                   ${PS} simulate maps/sim_bridge.json --steps 10 --save-state ${CMAKE_CURRENT_BINARY_DIR}/no_such_folder/game.json)
# `check-recording` reads the recording above headless: every frame against its state
# hash, the run taken up again at the steps given and run on 10 steps; a broken file is
# refused naming the file and the field or byte.
pathscope_cli_test(check_recording 0
                   "sim_bridge\\.psrec: steps 0 to 300, 301 frames decoded.*every state hash as recorded.*resume at step 150: ran on to step 160, 10 steps as recorded.*resume at step 300: ran on to step 310, 0 steps as recorded.*sim_bridge\\.psrec: passed"
                   ${PS} check-recording ${CMAKE_CURRENT_BINARY_DIR}/sim_bridge.psrec --resume-at 0 150 300)
pathscope_cli_test(check_recording_not_recorded 1
                   "resume at step 400: failed: [^ ]*sim_bridge\\.psrec: step: step 400 was not recorded \\(steps 0 to 300 were\\).*sim_bridge\\.psrec: failed"
                   ${PS} check-recording ${CMAKE_CURRENT_BINARY_DIR}/sim_bridge.psrec --resume-at 400)
set_tests_properties(cli.simulate_record PROPERTIES FIXTURES_SETUP recording)
set_tests_properties(cli.check_recording cli.check_recording_not_recorded PROPERTIES FIXTURES_REQUIRED recording)
pathscope_cli_test(check_recording_foreign 1 "foreign\\.psrec: format: expected \"pathscope-recording\": not a Pathscope recording"
                   ${PS} check-recording ${DATA}/foreign.psrec)
pathscope_cli_test(check_recording_cut 1 "cut\\.psrec: not a recording: its bytes are not well-formed CBOR \\(at byte [0-9]+\\)"
                   ${PS} check-recording ${DATA}/cut.psrec)
pathscope_cli_test(check_recording_damaged_frame 1 "damaged_frame\\.psrec: frames, bytes [0-9]+ to [0-9]+: the frame of step [0-9]+ is damaged"
                   ${PS} check-recording ${DATA}/damaged_frame.psrec)
pathscope_cli_test(simulate_text 0 "sim_town.json: 90 steps \\(3.00 s\\), 40 units, 0/0 arrived, 0 hard overlaps"
                   ${PS} simulate maps/sim_town.json --seconds 3)
pathscope_cli_test(simulate_bad_file 1 "bad_syntax.json:3:92: syntax error" ${PS} simulate ${DATA}/bad_syntax.json)
pathscope_cli_test(simulate_missing_file 1 "no_such.json" ${PS} simulate ${DATA}/no_such.json)

# Expectations: `simulate` prints each verdict, and exits 1 naming the first failed one
# and the simulated time it failed at. The boxed-in unit is flagged stuck at exactly
# sim.stuck_seconds, with what it was doing.
pathscope_cli_test(simulate_expect_stuck 1
                   "unit 1 stuck at 4\\.00 s at \\(2\\.50, 2\\.50\\), 13\\.00 m from its order point \\(15\\.50, 2\\.50\\), no progress since 0\\.00 s: failed, no collisions.*expect\\[0\\] no_overlaps: passed at 20\\.00 s.*expect\\[2\\] arrive: passed.*expect_boxed_in\\.json: 600 steps \\(20\\.00 s\\).*expect_boxed_in\\.json: expect\\[1\\] no_stuck failed at 4\\.00 s: unit 1 stuck"
                   ${PS} simulate ${DATA}/expect_boxed_in.json)
pathscope_cli_test(simulate_expect_json 1
                   "\"stuck_events\":1,.*\"expectations\":\\[\\{\"expectation\":\"expect\\[0\\] no_overlaps\",\"kind\":\"no_overlaps\",\"verdict\":\"passed\".*\"verdict\":\"failed\",\"time\":4\\.0.*\"expectations_passed\":false"
                   ${PS} simulate ${DATA}/expect_boxed_in.json --json)
pathscope_cli_test(simulate_expect_passes 0 "expect\\[2\\] passes \"every villager through the gate\": passed at [0-9.]+ s.*sim_town\\.json: 1800 steps \\(60\\.00 s\\)"
                   ${PS} simulate maps/sim_town.json)
pathscope_cli_test(simulate_bad_expect 1 "bad_expect\\.json: expect\\[1\\]\\.units\\[0\\]: no unit has id 9" ${PS} simulate ${DATA}/bad_expect.json)

# Stuck-unit repros (--save-stuck): one file per unit flagged stuck, the saved game from
# --repro-seconds (10) before its first flag, expecting it to arrive. Reopened, the repro
# flags the same unit at the same simulated time (the detector's tracks are in its state)
# and fails naming it; `check` runs a folder of them as a QA suite.
set(REPROS ${CMAKE_CURRENT_BINARY_DIR}/stuck_repros)
pathscope_cli_test(simulate_save_stuck 1
                   "unit 1 stuck at 13\\.37 s.*stuck repro: [^ ]*stuck_repros/stuck_gap_unit1_13\\.37s\\.json \\(unit 1 flagged at 13\\.37 s. starts at 3\\.37 s, step 101\\).*expect\\[1\\] arrive \"through the gap\" failed at 30\\.00 s"
                   ${PS} simulate ${DATA}/stuck_gap.json --save-stuck ${REPROS})
pathscope_cli_test(simulate_stuck_repro_reproduces 1
                   "^unit 1 stuck at 13\\.37 s at \\(11\\.68, 4\\.92\\).*expect\\[1\\] no_stuck \"unit 1 flagged stuck at 13\\.37 s\": failed at 13\\.37 s: unit 1 stuck at 13\\.37 s.*stuck_gap_unit1_13\\.37s\\.json: expect\\[0\\] arrive \"unit 1 flagged stuck at 13\\.37 s\" failed at [0-9.]+ s: unit 1 had not arrived"
                   ${PS} simulate ${REPROS}/stuck_gap_unit1_13.37s.json)
pathscope_cli_test(check_stuck_repros 1 "stuck_gap_unit1_13\\.37s\\.json +simulation +failed .*unit 1 had not arrived.*1 files, 1 checks: 0 passed, 1 failed"
                   ${PS} check ${REPROS})
set_tests_properties(cli.simulate_save_stuck PROPERTIES FIXTURES_SETUP stuck_repros)
set_tests_properties(cli.simulate_stuck_repro_reproduces cli.check_stuck_repros PROPERTIES FIXTURES_REQUIRED stuck_repros)
# --save-state keeps the stuck detector's tracks: saved at 10 s, the unit is still flagged
# at 13.37 s as in the uninterrupted run (a fresh detector would wait until 15 s at least).
# --units lists the units with an order they have not finished (unit 2 arrived; unit 3
# has no order), with what each is doing.
pathscope_cli_test(simulate_units 1
                   "expect\\[1\\] arrive \"through the gap\": failed at 30\\.00 s.*unit 1 \\(blue, infantry\\) at \\([0-9.]+, [0-9.]+\\), [0-9.]+ m/s, moving, [0-9.]+ m from its point \\(12\\.50, 9\\.50\\), next path point \\([0-9.]+, [0-9.]+\\) of [0-9]+ left, no progress for [0-9.]+ s.*stuck_gap\\.json: 900 steps"
                   ${PS} simulate ${DATA}/stuck_gap.json --units)
pathscope_cli_test(simulate_units_json 1
                   "\"units_left\":\\[\\{\"unit\":1,\"faction\":\"blue\",\"class\":\"infantry\",\"position\":\\[[^]]*\\],\"speed\":[^,]*,\"state\":\"moving\",[^{}]*\"order_point\":\\[12\\.5,9\\.5\\],[^{}]*\\}\\]"
                   ${PS} simulate ${DATA}/stuck_gap.json --units --json)
pathscope_cli_test(simulate_save_state_stuck_tracks 0 "saved game: .*stuck_gap_saved\\.json \\(step 300\\)"
                   ${PS} simulate ${DATA}/stuck_gap.json --steps 300 --save-state ${CMAKE_CURRENT_BINARY_DIR}/stuck_gap_saved.json)
pathscope_cli_test(simulate_saved_game_flags_as_before 0 "^unit 1 stuck at 13\\.37 s at \\(11\\.68, 4\\.92\\)"
                   ${PS} simulate ${CMAKE_CURRENT_BINARY_DIR}/stuck_gap_saved.json --steps 150)
set_tests_properties(cli.simulate_save_state_stuck_tracks PROPERTIES FIXTURES_SETUP stuck_saved)
set_tests_properties(cli.simulate_saved_game_flags_as_before PROPERTIES FIXTURES_REQUIRED stuck_saved)
# Flagged at 4 s, 10 s before is the start: the repro is the scenario itself.
pathscope_cli_test(simulate_save_stuck_at_start 1
                   "stuck repro: [^ ]*expect_boxed_in_unit1_4\\.00s\\.json \\(unit 1 flagged at 4\\.00 s. starts at 0\\.00 s, step 0\\)"
                   ${PS} simulate ${DATA}/expect_boxed_in.json --save-stuck ${CMAKE_CURRENT_BINARY_DIR}/stuck_repros_start)
pathscope_cli_test(simulate_save_stuck_json 1
                   "\"stuck_repros\":\\[\\{\"file\":\"[^\"]*stuck_gap_unit1_13\\.37s\\.json\",\"unit\":1,\"flagged\":13\\.36[0-9]*,\"starts\":13\\.3[0-9]*,\"step\":400\\}\\]"
                   ${PS} simulate ${DATA}/stuck_gap.json --json --repro-seconds 0.01 --save-stuck ${CMAKE_CURRENT_BINARY_DIR}/stuck_repros_json)
pathscope_cli_test(simulate_repro_seconds_zero 2 "--repro-seconds 0: expected a number of seconds > 0"
                   ${PS} simulate ${DATA}/stuck_gap.json --save-stuck ${CMAKE_CURRENT_BINARY_DIR}/stuck_repros_bad --repro-seconds 0)
pathscope_cli_test(simulate_repro_seconds_alone 2 "--repro-seconds requires --save-stuck"
                   ${PS} simulate ${DATA}/stuck_gap.json --repro-seconds 5)
pathscope_cli_test(simulate_save_stuck_not_a_folder 1 "--save-stuck [^ ]*stuck_gap\\.json: cannot make the folder"
                   ${PS} simulate ${DATA}/stuck_gap.json --save-stuck ${DATA}/stuck_gap.json)

# `pathscope check DIR`: a table in file order (the same with one thread or many), a
# summary line, exit 1 on any failure; a broken file is a failure naming file and field.
set(CHECK_SUITE_REGEX "a_walk\\.json +simulation +passed .*5 expectations held over 30\\.00 s simulated.*b_boxed_in\\.json +simulation +failed .*expect\\[1\\] no_stuck failed at 4\\.00 s: unit 1 stuck.*c_broken\\.json +broken +failed .*c_broken\\.json: expect\\.kind: expected \"arrive\".*d_search\\.json +search +passed .*2 queries of expected length matched.*e_wrong_length\\.json +search +failed .*queries\\[1\\] \"round the wall\": dijkstra length 20\\.970563, expected 19\\.500000.*5 files, 5 checks: 2 passed, 3 failed")
pathscope_cli_test(check_suite 1 "${CHECK_SUITE_REGEX}" ${PS} check ${DATA}/check_suite)
pathscope_cli_test(check_suite_one_job 1 "${CHECK_SUITE_REGEX}.* on 1 thread[^s]" ${PS} check ${DATA}/check_suite --jobs 1)
pathscope_cli_test(check_not_a_folder 1 "no_such_folder: not a folder" ${PS} check ${DATA}/no_such_folder)
pathscope_cli_test(check_bad_jobs 2 "--jobs" ${PS} check maps --jobs 0)
# The repository's own maps pass.
pathscope_cli_test(check_maps 0 "sim_town\\.json +simulation +passed.*walled_compound\\.json +search +passed.* 0 failed" ${PS} check maps)
# `pathscope bench sim`, small: one JSON object per generated case.
pathscope_cli_test(bench_sim_small 0 "\"case\":\"circle_20\",\"units\":20.*\"case\":\"crossing_5\",\"units\":10.*\"case\":\"random_20_Berlin_1_256\",\"units\":20"
                   ${PS} bench sim --circle 20 --crossing 5 --random 20 --seconds 5 --json)
# The README's circle of 100 (planner/sim/README.md, docs/benchmarks/sim.md "Standard
# cases"): every unit at its goal (within 0.5 m, the farthest under 0.3 m) in 85 to 93 s,
# with the referee's 0 hard overlaps and 0 tunnelled. Release only (sim-long).
pathscope_cli_test(bench_sim_circle_100_claim 0 "\"case\":\"circle_100\",\"units\":100,.*\"hard_overlaps\":0,.*\"tunnelled\":0,\"inside_walls\":0,\"stuck\":0,\"arrived_pct\":100\.0,\"at_goal_pct\":100\.0,.*\"max_goal_error_m\":0\.[0-2][0-9]*,.*\"seconds_to_arrive\":(8[5-9]|9[0-3])\."
                   ${PS} bench sim --circle 100 --crossing 0 --random 0 --seconds 120 --json)
set_tests_properties(cli.bench_sim_circle_100_claim PROPERTIES LABELS sim-long)
# `bench sim --rvo2 BIN` runs BIN (scripts/peers/rvo2_circle) on each circle case with
# the case's units, seconds and step, and adds its figures and ours / its; a peer that
# cannot run is reported, naming the option.
pathscope_cli_test(bench_sim_rvo2 0 "\"case\":\"circle_20\",\"units\":20,.*\"rvo2_micros_per_unit_step\":0\\.5,\"rvo2_ratio\":[0-9.e-]+,\"rvo2_at_goal_pct\":100\\.0,\"rvo2_seconds_to_arrive\":5\\.0"
                   ${PS} bench sim --circle 20 --crossing 0 --random 0 --seconds 5 --json --rvo2 ${DATA}/fake_rvo2.sh)
pathscope_cli_test(bench_sim_bad_rvo2 1 "--rvo2: .*no_such_rvo2.* exited with status"
                   ${PS} bench sim --circle 20 --crossing 0 --random 0 --seconds 1 --rvo2 ${DATA}/no_such_rvo2)
# `bench sim --avoidance MODE` runs every case with seed 000's reactive avoidance, and says
# what cooperation did (pair-steps per rule): a circle of 20 still all arrives, apart.
pathscope_cli_test(bench_sim_avoidance 0 "\"case\":\"circle_20\",\"units\":20,.*\"hard_overlaps\":0,.*\"tunnelled\":0,.*\"arrived_pct\":100\\.0,\"at_goal_pct\":100\\.0,.*\"avoidance\":\"steering_arcs\",\"collisions_found\":[1-9][0-9]*,\"rule_pair_steps\":{\"[a-z_]+\":[0-9]+"
                   ${PS} bench sim --circle 20 --crossing 0 --random 0 --seconds 60 --json --avoidance steering_arcs)
pathscope_cli_test(bench_sim_bad_avoidance 2 "--avoidance: .*not in \\{none,potential_field,steering_arcs\\}"
                   ${PS} bench sim --circle 20 --crossing 0 --random 0 --seconds 1 --avoidance magnets)
# `bench sim --crowd detour` runs each case's units as DetourCrowd agents too, in the same
# command, checked by the crowd referee: a circle of 20 all at their goals on both sides.
pathscope_cli_test(bench_sim_crowd_detour 0 "\"case\":\"circle_20\",\"units\":20,.*\"at_goal_pct\":100\\.0,.*\"detour_micros_per_unit_step\":[0-9.e+-]+,\"detour_ratio\":[0-9.e+-]+,\"detour_steps\":[1-9][0-9]*,\"detour_hard_overlaps\":[0-9]+,.*\"detour_tunnelled\":0,\"detour_inside_walls\":0,\"detour_jumps\":0,\"detour_longest_step_m\":[0-9.e+-]+,\"detour_at_goal_pct\":100\\.0"
                   ${PS} bench sim --circle 20 --crossing 0 --random 0 --seconds 60 --json --crowd detour)
pathscope_cli_test(bench_sim_bad_crowd 2 "--crowd: .*not in \\{none,detour\\}"
                   ${PS} bench sim --circle 20 --crossing 0 --random 0 --seconds 1 --crowd rvo)
pathscope_cli_test(bench_sim_funnel 0 "\"case\":\"funnel_6\",\"units\":6,.*\"hard_overlaps\":0"
                   ${PS} bench sim --circle 0 --crossing 0 --funnel 6 --random 0 --seconds 5 --json)
# `bench planners` runs every planner named on the same worlds and queries; grid A* is the
# reference (cost ratio 1), a planner that refuses says why, an unknown name is refused.
pathscope_cli_test(bench_planners 0 "\"world\":\"armada\",\"planner\":\"astar\",\"queries\":2,.*\"cost_ratio_to_astar\":1\\.0,\"illegal\":0,\"failures\":0,\"invalid\":0.*\"planner\":\"jps\",.*\"invalid\":2,\"refusal\":\"jps needs uniform costs"
                   ${PS} bench planners maps/armada.json --queries 2 --planner astar,jps --json)
pathscope_cli_test(bench_planners_unknown 1 "no planner named \"astra\""
                   ${PS} bench planners maps/armada.json --planner astra)
