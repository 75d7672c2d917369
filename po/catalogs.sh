#!/usr/bin/env bash
# The gettext catalogs of calendar-fcgi (docs/api.md §9): extracts the English texts from the sources,
# merges them into every po/<lang>.po, starts new languages and checks that nothing is left
# untranslated. `make build` compiles each po/<lang>.po with msgfmt into
# build/locale/<lang>/LC_MESSAGES/calendar.mo; the service ships every catalog it finds there.
#
#   po/catalogs.sh pot [FILE]   write the template (default po/calendar.pot) from the sources
#   po/catalogs.sh update       pot, then merge it into every po/<lang>.po (en_US: msgstr = msgid)
#   po/catalogs.sh add LANG     start po/LANG.po (e.g. it_IT) from the template, then translate it
#   po/catalogs.sh check        fail when a catalog lacks a translation or has a fuzzy one
#
# What counts as a message (a msgid), in src/api and src/core:
#   - the text argument of translate(locale, "...") and format_message(locale, "...", ...);
#   - every other string literal that reads as a sentence: starts with a letter or "%s", holds a
#     space and ends with a period. That covers parameter descriptions and summaries of the route
#     table and messages handed to helpers (e.g. fail(spec, "%s must not be empty.")); English
#     texts for clients are full sentences with a final period, so keep writing them that way;
#   - po/formatted.pot: messages as formatted with a word-kind argument ("The requested event was
#     not found."), which format_message() prefers when a catalog has them (see cal/core/i18n.h).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() {
  cat >&2 <<'USAGE'
po/catalogs.sh pot [FILE]   write the template (default po/calendar.pot) from the sources
po/catalogs.sh update       pot, then merge it into every po/<lang>.po (en_US: msgstr = msgid)
po/catalogs.sh add LANG     start po/LANG.po (e.g. it_IT) from the template, then translate it
po/catalogs.sh check        fail when a catalog lacks a translation or has a fuzzy one
USAGE
  exit 2
}

languages() { for f in po/*.po; do [ -e "$f" ] && basename "$f" .po; done; }

cmd_pot() {
  local out=${1:-po/calendar.pot} tmp sources
  tmp=$(mktemp -d)
  mapfile -t sources < <(find src/api src/core -name '*.cpp' | sort)
  local common=(--from-code=UTF-8 --language=C++ --no-wrap --add-location=file --sort-by-file
                --package-name=calendar-fcgi --msgid-bugs-address=calendar-fcgi --copyright-holder=)
  xgettext "${common[@]}" --keyword= --keyword=translate:2 --keyword=format_message:2 \
    -o "$tmp/calls.pot" "${sources[@]}"
  xgettext "${common[@]}" --extract-all -o "$tmp/all.pot" "${sources[@]}" 2>/dev/null
  msggrep --no-wrap --msgid -E -e '^(%s|[A-Za-z]).* .*\.$' -o "$tmp/sentences.pot" "$tmp/all.pot"
  local parts=("$tmp/calls.pot" "$tmp/sentences.pot" po/formatted.pot)
  [ -s "$tmp/sentences.pot" ] || parts=("$tmp/calls.pot" po/formatted.pot)
  msgcat --no-wrap --use-first --sort-by-file -o "$tmp/merged.pot" "${parts[@]}"
  # msgcat keeps a fuzzy header from xgettext; give the template a stable, charset-bearing one.
  sed -e 's/^"Content-Type: text\/plain; charset=CHARSET\\n"$/"Content-Type: text\/plain; charset=UTF-8\\n"/' \
      -e '/^"POT-Creation-Date: /d' "$tmp/merged.pot" > "$out"
  rm -rf "$tmp"
}

cmd_update() {
  cmd_pot po/calendar.pot
  local lang
  for lang in $(languages); do
    if [ "$lang" = en_US ]; then
      # The source language: every translation is the msgid itself.
      msgmerge --quiet --no-wrap --no-fuzzy-matching --sort-by-file -o - po/en_US.po po/calendar.pot |
        msgen --no-wrap -o po/en_US.po.new - && mv po/en_US.po.new po/en_US.po
    else
      msgmerge --quiet --update --backup=none --no-wrap --no-fuzzy-matching --sort-by-file \
        "po/$lang.po" po/calendar.pot
    fi
    msgattrib --no-obsolete --no-wrap -o "po/$lang.po" "po/$lang.po"
    printf '%s: ' "$lang"
    msgfmt --statistics -o /dev/null "po/$lang.po" 2>&1
  done
}

cmd_add() {
  [ $# -eq 1 ] && [[ $1 =~ ^[a-z][a-z]_[A-Z][A-Z]$ ]] || { echo "usage: po/catalogs.sh add ll_CC (e.g. it_IT)" >&2; exit 2; }
  [ -e "po/$1.po" ] && { echo "po/$1.po exists already" >&2; exit 1; }
  cmd_pot po/calendar.pot
  msginit --no-translator --no-wrap --locale="$1.UTF-8" -i po/calendar.pot -o "po/$1.po"
  echo "po/$1.po: translate every msgstr, then run make build" >&2
}

cmd_check() {
  local lang bad=0 pot merged count what
  pot=$(mktemp)
  cmd_pot "$pot"
  for lang in $(languages); do
    # The catalog as the fresh template would make it: what is untranslated or fuzzy there?
    merged=$(msgmerge --quiet --no-fuzzy-matching --no-wrap -o - "po/$lang.po" "$pot" | msgattrib --no-obsolete --no-wrap)
    for what in untranslated only-fuzzy; do
      count=$(printf '%s\n' "$merged" | msgattrib --$what --no-wrap | grep -c '^msgid "[^"]' || true)
      [ "$count" -gt 0 ] || continue
      echo "po/$lang.po: $count ${what#only-} text(s), e.g. $(printf '%s\n' "$merged" | msgattrib --$what --no-wrap |
        grep -m 1 '^msgid "[^"]' | cut -c7-)" >&2
      bad=1
    done
  done
  rm -f "$pot"
  [ $bad -eq 0 ] && echo "catalogs complete: $(languages | tr '\n' ' ')"
  return $bad
}

case ${1:-} in
  pot) shift; cmd_pot "$@" ;;
  update) cmd_update ;;
  add) shift; cmd_add "$@" ;;
  check) cmd_check ;;
  *) usage ;;
esac
