#!/usr/bin/env bash
# Installs the tests' independent iCalendar parser, ical.js (package.json, pinned by package-lock.json), from the
# npm registry into tests/ical/node_modules (git-ignored). Called by scripts/install-deps.sh,
# so every `make build` / `make test` has it; does nothing while node_modules is current. A
# failure (no network, no npm) is only a warning here: the iCalendar feed test then fails
# and says why.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

[ node_modules/.package-lock.json -nt package-lock.json ] && exit 0
if ! command -v npm >/dev/null 2>&1; then
  echo "ical/install: npm is missing; the iCalendar feed test will fail" >&2
  exit 0
fi
echo "ical/install: npm ci in tests/ical" >&2
if ! npm ci --no-audit --no-fund --loglevel=error >&2; then
  echo "ical/install: npm ci failed; the iCalendar feed test will fail" >&2
fi
exit 0
