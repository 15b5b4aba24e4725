#!/usr/bin/env bash
# Builds scripts/peers/rvo2_circle.cpp against an RVO2 checkout (https://github.com/snape/RVO2),
# outside this repository: `scripts/peers/build_rvo2.sh RVO2_SOURCE OUT_DIR` writes
# OUT_DIR/rvo2_circle, for `pathscope bench sim --circle 1000 --rvo2 OUT_DIR/rvo2_circle`.
# RVO2 is compiled as it ships (its src/*.cc, -O2, no OpenMP), with the compiler Pathscope uses.
set -euo pipefail
if [ $# -ne 2 ] || [ ! -f "$1/src/RVOSimulator.cc" ]; then
  echo "usage: $0 RVO2_SOURCE OUT_DIR   (RVO2_SOURCE holds src/RVOSimulator.cc)" >&2
  exit 2
fi
src=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
case "$out/" in "$(cd "$here/../.." && pwd)/"*) echo "$0: build the peer outside the repository" >&2; exit 2 ;; esac
mkdir -p "$out/obj"
for f in "$src"/src/*.cc; do
  g++ -O2 -DNDEBUG -std=c++20 -I"$src/src" -c "$f" -o "$out/obj/$(basename "$f" .cc).o"
done
g++ -O2 -DNDEBUG -std=c++20 -I"$src/src" "$here/rvo2_circle.cpp" "$out"/obj/*.o -o "$out/rvo2_circle"
echo "$out/rvo2_circle"
