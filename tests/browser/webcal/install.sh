#!/usr/bin/env bash
# Installs the web calendar's browser test driver (puppeteer-core, pinned by package-lock.json)
# from the npm registry into tests/browser/webcal/node_modules (git-ignored); puppeteer-core
# downloads no browser, the test uses Debian's chromium. Called by scripts/install-deps.sh; does
# nothing while node_modules is current. A failure is only a warning here: the web calendar's
# browser test then fails and says why.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

[ node_modules/.package-lock.json -nt package-lock.json ] && exit 0
if ! command -v npm >/dev/null 2>&1; then
  echo "webcal/install: npm is missing; the web calendar browser test will fail" >&2
  exit 0
fi
echo "webcal/install: npm ci in tests/browser/webcal" >&2
if ! npm ci --no-audit --no-fund --loglevel=error >&2; then
  echo "webcal/install: npm ci failed; the web calendar browser test will fail" >&2
fi
exit 0
