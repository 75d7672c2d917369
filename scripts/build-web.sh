#!/usr/bin/env bash
# `make web`: the web calendar as static files in BUILD_DIR/web/, ready to upload next to the API
# (docs/web-calendar.md). FullCalendar and DOMPurify come from the npm registry at the versions
# web/package-lock.json pins (`npm ci`, only when web/node_modules is older than the lock file);
# the web host itself runs no npm and no build: it serves the files.
#
#   build-web.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
out=$1/web

if ! [ web/node_modules/.package-lock.json -nt web/package-lock.json ]; then
  command -v npm >/dev/null || { echo "build-web: npm is missing (scripts/install-deps.sh)" >&2; exit 1; }
  echo "build-web: npm ci in web/" >&2
  (cd web && npm ci --no-audit --no-fund --loglevel=error >&2)
fi

# A fresh copy each time, assembled beside the old one and swapped in, so a file removed from
# web/ does not linger and a server never sees a half-copied folder.
rm -rf "$out.new"
mkdir -p "$out.new/js" "$out.new/vendor/locales"
cp web/index.html web/calendar.css web/calendar-config.json "$out.new/"
cp web/js/*.js "$out.new/js/"
cp web/node_modules/fullcalendar/index.global.min.js "$out.new/vendor/fullcalendar.min.js"
cp web/node_modules/fullcalendar/LICENSE.md "$out.new/vendor/LICENSE-fullcalendar.md"
cp web/node_modules/dompurify/dist/purify.min.js "$out.new/vendor/purify.min.js"
cp web/node_modules/dompurify/LICENSE "$out.new/vendor/LICENSE-dompurify"
for lang in de fr es; do
  cp "web/node_modules/@fullcalendar/core/locales/$lang.global.min.js" "$out.new/vendor/locales/$lang.js"
done
chmod -R a+rX "$out.new"      # read by the web servers' user (www-data in the tests)
rm -rf "$out"
mv "$out.new" "$out"
