#!/usr/bin/env bash
# Installs the npm packages of the tests, each folder's pinned by its package-lock.json, from the
# npm registry into its node_modules (git-ignored): the OpenAPI validator (tests/openapi), the
# independent iCalendar parser ical.js (tests/ical) and the web calendar's browser driver
# puppeteer-core (tests/browser/webcal; it downloads no browser, the test uses Debian's chromium) and
# the WordPress client wpapi (tests/wpapi: WPAPI.discover from the site root).
# Called by scripts/install-deps.sh, so every `make build` / `make test` has them; a folder whose
# node_modules is current is skipped. A failure (no network, no npm) is only a warning here: the
# test that needs the folder then fails and says why.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

for folder in tests/openapi tests/ical tests/browser/webcal tests/wpapi; do
  [ "$folder/node_modules/.package-lock.json" -nt "$folder/package-lock.json" ] && continue
  if ! command -v npm >/dev/null 2>&1; then
    echo "install-npm-tools: npm is missing; the tests using $folder will fail" >&2
    continue
  fi
  echo "install-npm-tools: npm ci in $folder" >&2
  if ! (cd "$folder" && npm ci --no-audit --no-fund --loglevel=error >&2); then
    echo "install-npm-tools: npm ci failed in $folder; the tests using it will fail" >&2
  fi
done
exit 0
