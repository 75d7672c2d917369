#!/usr/bin/env bash
# `make check-format`: whether every tracked C++ file of src/, include/ and tests/ is formatted as
# .clang-format says (clang-format 14, `--dry-run --Werror`); changes nothing. One test: prints
# the files that differ and ends with "1 passed, 0 failed" or "0 passed, 1 failed" (the line
# run-tests.sh counts). About 3 s for the whole tree.
set -uo pipefail

usage() {
  cat >&2 <<'USAGE'
usage: check-format.sh [--show] [FILE...]   FILEs instead of the tracked ones; --show prints
                                            clang-format's diagnostics too
CLANG_FORMAT (environment) names the binary; default clang-format-14, else clang-format.
To format a file: clang-format -i FILE.
USAGE
  exit 2
}

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2

show=0
if [ "${1:-}" = --show ]; then show=1; shift; fi
case ${1:-} in -*) usage ;; esac

fail() { echo "check-format: $*"; echo "0 passed, 1 failed"; exit 1; }

cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
  for c in clang-format-14 clang-format; do command -v "$c" >/dev/null 2>&1 && { cf=$c; break; }; done
fi
[ -n "$cf" ] && command -v "$cf" >/dev/null 2>&1 ||
  fail "no clang-format (Debian package clang-format; scripts/install-deps.sh)"
# Another major version formats some constructs differently: the check would not be this one.
version=$("$cf" --version 2>/dev/null | grep -oE 'version [0-9]+' | head -n 1)
[ "$version" = "version 14" ] || fail "$cf is ${version:-of unknown version}; the style is defined for clang-format 14"

if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files -- 'src/*.cpp' 'src/*.h' 'include/*.h' 'tests/*.cpp' 'tests/*.h')
fi
[ ${#files[@]} -gt 0 ] || fail "no files to check"

# One clang-format for all (in parallel, their diagnostic lines would interleave); they read
# "FILE:LINE:COL: error: code should be clang-formatted [-Wclang-format-violations]".
out=$(printf '%s\0' "${files[@]}" | xargs -0 "$cf" --style=file --dry-run --Werror 2>&1)
rc=$?
mapfile -t bad < <(grep -oE '^[^:]+:[0-9]+:[0-9]+: error: code should be clang-formatted' <<<"$out" |
                   cut -d: -f1 | sort | uniq -c | awk '{print $2 " (" $1 " places)"}')
if [ "$rc" -eq 0 ] && [ ${#bad[@]} -eq 0 ]; then
  echo "check-format: all ${#files[@]} files are formatted"
  echo "1 passed, 0 failed"
  exit 0
fi
[ "$show" -eq 1 ] && printf '%s\n' "$out"
if [ ${#bad[@]} -eq 0 ]; then
  printf '%s\n' "$out" | head -n 40
  fail "$cf failed (status $rc) without naming a badly formatted file"
fi
echo "check-format: ${#bad[@]} of ${#files[@]} files are not formatted as .clang-format says (clang-format -i FILE;" \
     "--show for the places):"
printf '  %s\n' "${bad[@]}"
echo "0 passed, 1 failed"
exit 1
