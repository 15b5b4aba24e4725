#!/usr/bin/env bash
# Checks that every C++ source of the repository is formatted by its .clang-format.
#
#   scripts/check_format.sh          list the files clang-format would change; exit 1 if any
#   scripts/check_format.sh --fix    format them in place
#
# The sources are the tracked files (git ls-files) when the tree is a git checkout, else
# every .cpp/.hpp/.inl under app/, planner/, render/ and tests/; tests/data/ is left as it
# is (its sources are test inputs, some deliberately wrong).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

command -v clang-format >/dev/null 2>&1 || {
  echo "check_format.sh: clang-format not found (Debian package clang-format)" >&2
  exit 1
}

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- 'app/*.cpp' 'app/*.hpp' 'planner/*.cpp' 'planner/*.hpp' \
    'planner/*.inl' 'render/*.cpp' 'render/*.hpp' 'tests/*.cpp' 'tests/*.hpp' ':!tests/data/*')
else
  mapfile -t files < <(find app planner render tests -path tests/data -prune -o \( -name '*.cpp' -o -name '*.hpp' -o -name '*.inl' \) -print | sort)
fi

if [[ "${1:-}" == "--fix" ]]; then
  clang-format -i "${files[@]}"
  echo "formatted ${#files[@]} files"
  exit 0
fi

# One clang-format for every file; its messages name each file it would change.
if report="$(clang-format --dry-run --Werror "${files[@]}" 2>&1)"; then
  echo "${#files[@]} files formatted by .clang-format"
  exit 0
fi
printf 'not formatted by .clang-format (%s): run scripts/check_format.sh --fix\n' "$(clang-format --version)"
grep -o '^[^:]*:[0-9]*:[0-9]*: error' <<<"$report" | cut -d: -f1 | sort -u | sed 's/^/  /'
exit 1
