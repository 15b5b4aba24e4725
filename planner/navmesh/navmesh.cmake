# The navmesh family links Recast, Detour, DetourCrowd and DetourTileCache (Debian's
# librecast-dev, installed by scripts/setup.sh: headers in /usr/include/recastnavigation),
# publicly so that tests can check its answers against Detour called directly. Its sources
# are the planner library's (planner/CMakeLists.txt takes every .cpp under planner/).
find_path(RECAST_INCLUDE_DIR Recast.h PATH_SUFFIXES recastnavigation REQUIRED)
find_library(RECAST_LIBRARY Recast REQUIRED)
find_library(DETOUR_LIBRARY Detour REQUIRED)
find_library(DETOUR_CROWD_LIBRARY DetourCrowd REQUIRED)
find_library(DETOUR_TILE_CACHE_LIBRARY DetourTileCache REQUIRED)
target_include_directories(pathscope_planner SYSTEM PUBLIC ${RECAST_INCLUDE_DIR})
target_link_libraries(pathscope_planner PUBLIC ${DETOUR_TILE_CACHE_LIBRARY} ${DETOUR_CROWD_LIBRARY} ${DETOUR_LIBRARY} ${RECAST_LIBRARY})
