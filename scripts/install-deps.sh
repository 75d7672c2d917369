#!/usr/bin/env bash
# Installs the Debian packages the build, the dev stack and the tests need; skips what is present.
# Why each one is needed is written in README.md ("Dependencies").
set -euo pipefail

packages=(
  g++ make pkg-config
  libfcgi-dev rapidjson-dev libmysqlcppconn-dev libboost-program-options-dev doctest-dev
  libsodium-dev libxxhash-dev tzdata libgumbo-dev libcurl4-openssl-dev libical-dev
  mariadb-server mariadb-client nginx curl jq
  wrk libzstd-dev libjemalloc-dev libssl-dev libmariadb-dev zlib1g-dev strace
  libical-dev
  clang libclang-rt-14-dev clang-format
  gettext
  apache2 libapache2-mod-fcgid spawn-fcgi
  faketime
  python3-dateutil
  chromium
  prometheus
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# Node.js runs the tests' OpenAPI validator (tests/openapi/) and iCalendar parser (tests/ical/);
# any node >= 18 will do, so a node installed another way (e.g. nodesource, which bundles npm)
# counts as present.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then missing+=(nodejs npm); fi
# The npm packages of the tests, once the packages above are there (no-ops while current).
trap '[ $? -eq 0 ] && "$(dirname "${BASH_SOURCE[0]}")/install-npm-tools.sh"' EXIT
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]} (run as root or install them)" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Never let package installation start system services: the stack runs privately under var/.
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' > "$policy"; chmod +x "$policy"; created_policy=1; fi
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
[ "$created_policy" = 1 ] && rm -f "$policy"
exit 0
