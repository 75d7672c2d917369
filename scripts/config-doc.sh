#!/usr/bin/env bash
# docs/configuration.md is what `calendar-fcgi --config-reference` prints from the option table
# the service parses with (src/core/config_options.cpp), so the page cannot drift from the code.
set -uo pipefail

usage() {
  cat >&2 <<'USAGE'
usage: config-doc.sh BUILD_DIR           write docs/configuration.md (make docs)
       config-doc.sh --check BUILD_DIR   one test: whether the committed page is what the binary
                                         prints; ends with "1 passed, 0 failed" or "0 passed,
                                         1 failed" (the line run-tests.sh counts)
USAGE
  exit 2
}

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
page=docs/configuration.md

check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
[ $# -eq 1 ] || usage
bin="$1/calendar-fcgi"
[ -x "$bin" ] || { echo "config-doc: no $bin (make service)" >&2; [ "$check" -eq 0 ] || echo "0 passed, 1 failed"; exit 1; }

new=$(mktemp)
trap 'rm -f "$new"' EXIT
if ! "$bin" --config-reference > "$new"; then
  echo "config-doc: $bin --config-reference failed"
  [ "$check" -eq 0 ] || echo "0 passed, 1 failed"
  exit 1
fi

if [ "$check" -eq 0 ]; then
  mkdir -p docs
  cp "$new" "$page"
  echo "config-doc: wrote $page"
  exit 0
fi
if diff -u --label "$page (committed)" --label "$bin --config-reference" "$page" "$new"; then
  echo "config-doc: $page is what $bin --config-reference prints"
  echo "1 passed, 0 failed"
  exit 0
fi
echo "config-doc: $page differs from the option table: run \`make docs\` and commit the page"
echo "0 passed, 1 failed"
exit 1
