#!/usr/bin/env bash
# docs/examples.md: the requests a client author needs, each run against a fresh private stack
# (scripts/stack.sh: its own MariaDB, calendar-fcgi and nginx on a free port, in a temporary
# directory removed afterwards), written down with the real answer. The same requests with
# --check compare today's answers with the committed page, so no example can drift; what differs
# from run to run (dates and times, the year of the examples' events, ETags, sync tokens) is
# replaced by placeholders on both sides first. The ids are the same on every fresh database.
# Bodies are pretty-printed by jq; arrays of more than three items keep their first two and a
# "… N more" item, and a body longer than 70 lines (but the first) stops there with the count of
# the rest.
set -euo pipefail

usage() {
  cat >&2 <<'USAGE'
usage: doc-examples.sh BUILD_DIR           write docs/examples.md (make docs)
       doc-examples.sh --check BUILD_DIR   one test: whether the committed page is what the service
                                           answers today; ends with "1 passed, 0 failed" or
                                           "0 passed, 1 failed" (the line run-tests.sh counts)
DOC_EXAMPLES_DIR (environment): the stack's directory instead of a temporary one; it is then kept
after a failed check, with the stack's logs (scripts/run-tests.sh puts it below its run directory).
USAGE
  exit 2
}

cd "$(dirname "${BASH_SOURCE[0]}")/.."
page=docs/examples.md

check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
[ $# -eq 1 ] && [ "${1:0:1}" != - ] || usage
build=$(cd "$1" 2>/dev/null && pwd) || { echo "doc-examples: no build directory $1" >&2; exit 2; }

# fail MESSAGE: the check's verdict (or the writer's error) and exit.
fail() {
  echo "doc-examples: $*"
  [ "$check" -eq 0 ] || echo "0 passed, 1 failed"
  exit 1
}
command -v jq >/dev/null || fail "no jq (Debian package jq; scripts/install-deps.sh)"

# --- the stack -------------------------------------------------------------------------------
own_dir=0
if [ -n "${DOC_EXAMPLES_DIR:-}" ]; then
  dir=$DOC_EXAMPLES_DIR
  [ ! -e "$dir/mysql" ] || fail "$dir already holds a stack: the examples need a fresh database"
  mkdir -p "$dir"
else
  dir=$(mktemp -d "${TMPDIR:-/tmp}/calendar-examples.XXXXXX")
  own_dir=1
fi
work=$(mktemp -d)
ok=0
cleanup() {
  scripts/stack.sh down "$dir" >/dev/null 2>&1 || true
  rm -rf "$work"
  if [ "$own_dir" -eq 1 ]; then rm -rf "$dir"; elif [ "$ok" -eq 1 ]; then rm -rf "$dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port=$(scripts/stack.sh free-port)
scripts/stack.sh up "$dir" "$port" "$build" >"$work/stack.log" 2>&1 ||
  { tail -n 30 "$work/stack.log"; fail "the stack did not start"; }
base="http://127.0.0.1:$port/api/cal/events/v1"
token=$(cat "$dir/admin.token")

# --- one example -----------------------------------------------------------------------------
# The events are next year's, so the default list window (yesterday to 24 months ahead) holds
# them whatever the day the page is made.
year=$(($(date -u +%Y) + 1))
# $YEAR in a path or body is shown and sent as that year; another $NAME of vars (in a path or a
# header) is shown as written, a shell variable the reader sets from an earlier answer, and sent
# expanded.
declare -A vars=([YEAR]=$year)
n=0
out=$work/page.md

# expand TEXT: TEXT with each $NAME of vars replaced by its value.
expand() {
  local text=$1 name
  for name in "${!vars[@]}"; do text=${text//\$$name/${vars[$name]}}; done
  printf '%s' "$text"
}

# example [-a] [-d JSON] [-H HEADER]... [-p JQ] [-w] METHOD PATH TITLE TEXT: runs the request and
# adds it to the page: TITLE as a heading, TEXT, the curl command and the answer. -a: as the
# administrator (Authorization: Bearer $TOKEN); -d: a JSON body; -p: a jq filter that picks the
# keys the example is about; -w: the whole body, however long (the first record of the page).
example() {
  local auth=0 body="" pick="" cap=70 opt OPTIND=1
  local headers=()
  while getopts 'ad:H:p:w' opt; do
    case $opt in
      a) auth=1 ;;
      d) body=$OPTARG ;;
      H) headers+=("$OPTARG") ;;
      p) pick=$OPTARG ;;
      w) cap=1000 ;;
      *) echo "doc-examples: example: bad option" >&2; exit 2 ;;
    esac
  done
  shift $((OPTIND - 1))
  local method=$1 path=$2 title=$3 text=$4
  n=$((n + 1))

  # The command as a reader types it, and the one sent.
  local shown="curl -si" h
  local send=(curl -si --noproxy '*' --max-time 30)
  if [ "$method" != GET ]; then shown+=" -X $method"; send+=(-X "$method"); fi
  shown+=" \"http://127.0.0.1:8080/api/cal/events/v1${path//\$YEAR/$year}\""
  send+=("$base$(expand "$path")")
  if [ "$auth" -eq 1 ]; then
    shown+=$' \\\n  -H "Authorization: Bearer $TOKEN"'
    send+=(-H "Authorization: Bearer $token")
  fi
  for h in "${headers[@]}"; do
    shown+=$' \\\n  -H "'"$h"'"'
    send+=(-H "$(expand "$h")")
  done
  if [ -n "$body" ]; then
    shown+=$' \\\n  -H "Content-Type: application/json" -d \''"${body//\$YEAR/$year}"\'
    send+=(-H "Content-Type: application/json" --data-binary "$(expand "$body")")
  fi

  "${send[@]}" > "$work/response" || fail "example $n ($title): curl failed"
  # Head and body; the port of this stack becomes the reader's 8080.
  sed -i "s|127\.0\.0\.1:$port|127.0.0.1:8080|g" "$work/response"
  awk 'NR == 1, /^\r?$/ { sub(/\r$/, ""); print > "/dev/stderr"; next } { print }' \
    "$work/response" 2>"$work/head" >"$work/body"
  last_body=$work/body
  last_etag=$(sed -n 's/^[Ee][Tt][Aa][Gg]: //p' "$work/head")

  {
    printf '## %d. %s\n\n%s\n\n```sh\n%s\n```\n\n```http\n' "$n" "$title" "$text" "$shown"
    head -n 1 "$work/head"
    grep -iE '^(content-type|location|x-wp-total|x-wp-totalpages|link|etag|cache-control|allow|content-disposition):' \
      "$work/head" | grep -vF 'rel="https://api.w.org/"' || true
    if [ -s "$work/body" ]; then
      echo
      if grep -qi '^content-type: .*json' "$work/head"; then
        jq "${pick:-.}"' | walk(if type == "array" and length > 3 then .[:2] + ["… \(length - 2) more"] else . end)' \
          "$work/body" > "$work/pretty" || fail "example $n ($title): the answer is not JSON"
      else
        tr -d '\r' < "$work/body" > "$work/pretty"
      fi
      local lines
      lines=$(wc -l < "$work/pretty")
      head -n "$cap" "$work/pretty"
      [ "$lines" -le "$cap" ] || echo "… ($((lines - cap)) more lines)"
    fi
    printf '```\n\n'
  } >> "$out"
}

# --- the page --------------------------------------------------------------------------------
cat > "$out" <<'EOF'
# Examples

<!-- Generated by scripts/doc-examples.sh (make docs) from the answers of a fresh stack;
     `make test` fails when the service answers otherwise. Edit the script, not this page. -->

Real requests and the service's real answers, in order, on a database that starts empty but for
the administrator. The contract behind them is [docs/api.md](api.md). To follow along, start a
stack with `make start` and set `TOKEN=$(cat var/admin.token)`; your dates, ids and ETags may
differ. Only the headers that matter to a client are shown; long JSON arrays keep their first
two items, and some answers are cut to the keys the example is about (noted where so).

EOF

example -a -w -d '{"title":"Jazz Night","start_date":"$YEAR-12-05 20:00","end_date":"$YEAR-12-05 23:00","timezone":"Europe/Berlin","cost":"10€, 15€","categories":["Concerts"],"tags":["jazz"],"venue":{"venue":"Blue Note Hall","address":"Hauptstr. 1","city":"Berlin","country":"Germany","zip":"10115"},"organizer":[{"organizer":"Jazz Club e.V.","email":"info@jazzclub.example"},{"organizer":"City of Berlin"}]}' \
  POST /events "Create an event with a new venue and organizers" \
  "The venue and the organizers are created with the event; categories and tags are given by name and created when missing. The answer is the whole record, with its \`Location\`."

example -a -d '{"title":"Jazz Brunch","start_date":"$YEAR-12-06 11:00","end_date":"$YEAR-12-06 14:00","timezone":"Europe/Berlin","venue":2,"organizer":[3],"tags":"jazz,brunch"}' \
  -p '{id, title, start_date, venue: {id: .venue.id, venue: .venue.venue}, organizer: [.organizer[] | {id, organizer}], tags: [.tags[].name]}' \
  POST /events "Create an event that reuses a venue and an organizer" \
  "Linked records are given by id; tags may be a comma-separated list. Cut to the keys that matter here."

example -a -d '{"title":"Organ Recital","start_date":"$YEAR-12-20 18:00","end_date":"$YEAR-12-20 19:30","timezone":"Europe/Berlin","all_day":false,"categories":["Concerts"],"featured":true,"description":"<p>Bach and <em>Buxtehude</em>.</p>"}' \
  -p '{id, title, featured, description, excerpt, categories: [.categories[].slug]}' \
  POST /events "Create a featured event with an HTML description" \
  "The description is HTML, kept after an allow-list of elements and attributes. Cut to the keys that matter here."

example -p '{events: [.events[] | {id, title, start_date}], total, total_pages, rest_url}' \
  GET '/events?per_page=2' "List events, one page at a time" \
  "Without a date window the list holds the events from yesterday to 24 months ahead, by start date. \`X-WP-Total\` and \`X-WP-TotalPages\` count them all; \`Link\` points to the next page."

example -p '{events: [.events[] | {id, title, start_date, end_date}]}' \
  GET '/events?start_date=$YEAR-12-06&end_date=$YEAR-12-06' "Events of one day" \
  "A date window in the site's time zone: the events that start on 6 December."

example -p '{events: [.events[] | {id, title}]}' \
  GET '/events?search=brunch' "Search" \
  "Every word must occur in the title, description or excerpt; \`-word\` excludes."

example -p '{events: [.events[] | {id, title, categories: [.categories[].slug]}]}' \
  GET '/events?categories=concerts&featured=true' "Filter by category and flag" \
  "Categories and tags by id or slug (several are ORed); \`featured\` is a boolean filter."

example -p '{id, title, slug, url, rest_url, venue: .venue.venue, json_ld}' \
  GET /events/by-slug/jazz-night "One event by its slug" \
  "A single record also carries its schema.org description in \`json_ld\`. Cut to the keys that matter here."

example -a -d '{"cost":"0€,20€,30€","featured":true}' \
  -p '{id, title, cost, cost_details, featured}' \
  PATCH /events/1 "Update some fields" \
  "Only the fields sent change. Cut to the keys that matter here."

example -p '{events: [.events[] | {id, title}]}' \
  GET '/events?per_page=1' "Remember the list's ETag" \
  "Every GET answer has an ETag; the next example sends it back."

vars[ETAG]=$last_etag
example -H 'If-None-Match: $ETAG' \
  GET '/events?per_page=1' "Ask again only if it changed" \
  "With the ETag of the previous answer the service says 304 Not Modified, without a body, while nothing in the answer changed."

example -a -d '{"venue":"Lincoln Center","address":"10 Lincoln Center Plaza","city":"New York","state":"NY","country":"US","zip":"10023","phone":"+1 212 875 5000"}' \
  -p '{id, venue, address, city, state, province, stateprovince, country, zip, phone, slug}' \
  POST /venues "Create a venue" \
  "For a US address \`stateprovince\` is derived from the state. Cut to the keys that matter here."

example -p '{venues: [.venues[] | {id, venue, city}]}' \
  GET '/venues?search=lincoln%20york' "Search venues" \
  "A venue list's search, like an event list's: every word must match."

example -a -d '{"organizer":"Jazz Club e.V.","email":"info@jazzclub.example"}' \
  -p '{id, organizer, email}' \
  POST /organizers "Create an organizer that exists already" \
  "An identical create answers 200 with the existing record instead of a duplicate."

example -p '{organizers: [.organizers[] | {id, organizer, email}]}' \
  GET '/organizers?event=1' "The organizers of one event" \
  "Venue, organizer, category and tag lists take \`event=ID\`: the records linked to that event."

example -a -d '{"name":"Big Band","parent":1,"description":"Large ensembles"}' \
  POST /categories "Create a child category" \
  "Categories form a tree; the answer is 201 with \`Location\`."

example -p '{categories: [.categories[] | {id, name, slug, parent, count}]}' \
  GET '/categories?hide_empty=false&orderby=name&order=asc' "List categories" \
  "Empty categories are hidden unless \`hide_empty=false\`."

example -p '{tags: [.tags[] | {id, name, slug, count}]}' \
  GET '/tags?event=5' "The tags of one event" \
  "\`count\` is the number of published events with the tag."

example -a -p '{id, title, status, slug}' \
  DELETE /events/5 "Move an event to the trash" \
  "DELETE trashes: the answer is the record with status \`trash\` and a suffixed slug. Cut to the keys that matter here."

example -a DELETE /events/5 "Trash it again" \
  "An event already in the trash answers 410."

example -d '{}' POST /events "Error: a visitor may not write" \
  "Every error has the same shape: \`code\`, \`message\` and \`data.status\`."

example GET '/events?page=0&featured=maybe' "Error: bad parameters" \
  "All the bad parameters of a request are named at once, in \`data.params\`."

example GET /venues/999 "Error: an unknown record" \
  "Each kind of record has its own not-found code."

example GET '/events?ical=1' "The list as an iCalendar feed" \
  "Any events query is also a feed (\`ical=1\` or \`Accept: text/calendar\`), for calendar apps to subscribe to."

example -a GET /changes "Sync: take a position" \
  "Without \`since\`, \`/changes\` answers no changes and the position \"now\" in \`next\`."
vars[NEXT]=$(jq -r .next "$last_body")

example -a -d '{"title":"Late Addition","start_date":"$YEAR-12-21 20:00","end_date":"$YEAR-12-21 22:00","timezone":"Europe/Berlin"}' \
  -p '{id, title}' \
  POST /events "Sync: something changes" "An event is created after the position was taken."

example -a -p '{changes: [.changes[] | {kind, id, action, record: {title: .record.title}}], next, more}' \
  GET '/changes?since=$NEXT' "Sync: what changed since" \
  "Each change names the kind, id and action, with the record on an \`upsert\`; store \`next\` and ask again. Cut to the keys that matter here."

# --- write or compare ------------------------------------------------------------------------
if [ "$check" -eq 0 ]; then
  mkdir -p docs
  cp "$out" "$page"
  ok=1
  echo "doc-examples: wrote $page ($n examples)"
  exit 0
fi

# normalize FILE: what may differ between two runs replaced by placeholders.
normalize() {
  sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}([ T][0-9]{2}:[0-9]{2}(:[0-9]{2})?)?/DATE/g' \
         -e 's/[0-9]{8}T[0-9]{6}Z?/DATETIME/g' \
         -e 's/\b20[0-9]{2}\b/YEAR/g' \
         -e 's/^(ETag|etag): .*/ETag: ETAG/' \
         -e 's/^SEQUENCE:[0-9]+/SEQUENCE:N/' \
         -e 's/"(next|since)": "[^"]*"/"\1": "TOKEN"/g' "$1"
}
[ -f "$page" ] || fail "no $page: run \`make docs\` and commit the page"
if diff -u --label "$page (committed)" --label "the service today" <(normalize "$page") <(normalize "$out"); then
  ok=1
  echo "doc-examples: the $n examples of $page answer as written"
  echo "1 passed, 0 failed"
  exit 0
fi
fail "the service answers otherwise than $page says (above, dates, ETags and tokens as placeholders): run \`make docs\`, read the difference and commit the page"
