#!/usr/bin/python3
"""The independent expander the recurrence unit tests compare with (recurrence_oracle_test.cpp).

Reads cases from standard input, one per line, tab-separated:
    id  zone  anchor  length  all_day  to  lines
anchor is a wall clock (YYYYMMDDTHHMMSS) in the IANA zone; length the first occurrence's length:
minutes of wall clock for a timed event (DTEND = DTSTART's wall clock + length), days for an
all-day one (DTEND = the last day at 23:59:59); all_day is 0 or 1, to is the window's end in UTC
(YYYYMMDDTHHMMSSZ), lines the recurrence lines joined by "|". Prints one line per case,
tab-separated:
    id  anchor_status  dtstart  status  total  occurrences
anchor_status: "ok" when the rule (without COUNT and UNTIL) produces the anchor, "until" when
UNTIL is before the anchor, else "noproduce". dtstart: the rule's first date-time at or after the
anchor ("-" when there is none within 12 years; the rest of the line is then "-"). status: "until"
when UNTIL is before dtstart, else "ok". total: the number of occurrences starting before `to`.
occurrences: "LOCAL/STARTZ/ENDZ" for each, space-separated, from a first occurrence at dtstart.

python-dateutil (Debian's python3-dateutil: rrule, rruleset) expands the rule on naive wall
clocks; zoneinfo gives the offsets. Where dateutil's semantics differ from those the service
promises (docs/recurring-events.md), this script bridges the difference itself:
  1. UNTIL: dateutil compares it with naive wall clocks (and refuses a UTC UNTIL with a naive
     DTSTART); RFC 5545 compares instants. UNTIL is taken out of the rule and applied here to
     each occurrence's instant (an all-day event's DATE UNTIL to its date).
  2. DTSTART: dateutil omits a DTSTART its rule does not produce, RFC 5545 counts it anyway, the
     service refuses it. The anchor's status says which; the rule's own first date is DTSTART.
  3. Wall clocks to instants: resolve() below applies RFC 5545's rule (errata 4271) on its own: in
     a DST gap the offset before the gap (the clock moves forward by the gap's length), in a
     repeat the first instant; it does not rely on zoneinfo's fold handling.
  4. RDATE and EXDATE: rruleset compares datetimes by equality. It is fed UTC instants, so an
     EXDATE removes the occurrence at its instant and an RDATE at an instant the rule has adds
     nothing, as the service does; which one's wall clock names the occurrence is tracked here
     (the rule's wins).
  5. COUNT is applied here to dateutil's dates from DTSTART (the same thing, and needed for 6).
  6. dateutil's first week of a WEEKLY rule starts at DTSTART, not at the week's first day (WKST),
     so BYSETPOS picks among part of that week; RFC 5545 picks among the whole week, then drops
     dates before DTSTART. Such rules are expanded from the week's first day (with DTSTART's
     weekday as BYDAY when the rule has none), then cut at DTSTART.
  7. dateutil intersects plain and ordinal weekdays of one BYDAY ("SA,10SA" is the 10th Saturday
     only); RFC 5545 unites them. The generated rules never mix the two; recurrence_expand_test.cpp
     covers the union.
  8. Values dateutil has no meaning for: a DATE in RDATE/EXDATE of a timed event is that date at
     DTSTART's time of day; a timed occurrence lasts DTSTART..DTEND's exact duration (a PERIOD
     its own), an all-day one as many calendar days, ending at DTEND's time of day.
"""

import re
import sys
import warnings
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr, rruleset

UTC = timezone.utc
WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]  # datetime.weekday() order
# dateutil warns when COUNT and a bounding UNTIL meet; the bound below only stops the iteration.
warnings.simplefilter("ignore", DeprecationWarning)


def wall(text):
    return datetime.strptime(text[:15], "%Y%m%dT%H%M%S")


def date_value(text):
    return datetime.strptime(text, "%Y%m%d")


def fmt(dt):
    return dt.strftime("%Y%m%dT%H%M%S")


def fmt_utc(instant):
    return instant.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def local_of(zone, instant):
    return instant.astimezone(zone).replace(tzinfo=None)


def resolve(zone, naive):
    """The instant of a wall clock: a repeat's first instant, in a gap the pre-gap offset."""
    as_utc = naive.replace(tzinfo=UTC)
    before = (as_utc - timedelta(days=1)).astimezone(zone).utcoffset()
    after = (as_utc + timedelta(days=1)).astimezone(zone).utcoffset()
    found = [as_utc - off for off in {before, after} if local_of(zone, as_utc - off) == naive]
    return min(found) if found else as_utc - before


DURATION = re.compile(r"^\+?P(?:(\d+)W|(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?)$")


class Case:
    def __init__(self, fields):
        self.id, zone, anchor, length, all_day, to, lines = fields
        self.zone = ZoneInfo(zone)
        self.anchor = wall(anchor)
        self.length = int(length)
        self.all_day = all_day == "1"
        self.to = datetime.strptime(to, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
        self.rule = None  # the RRULE's parts but COUNT and UNTIL
        self.count = None
        self.until = None  # ("date", date) or ("instant", aware datetime)
        self.rdates, self.exdates = [], []
        for line in lines.split("|") if lines else []:
            head, value = line.split(":", 1)
            name, *params = head.split(";")
            if name == "RRULE":
                self.read_rule(value)
            else:
                (self.rdates if name == "RDATE" else self.exdates).append((dict(p.split("=", 1) for p in params), value))

    def read_rule(self, value):
        self.rule = {}
        for part in value.split(";"):
            key, text = part.split("=", 1)
            if key == "COUNT":
                self.count = int(text)
            elif key != "UNTIL":
                self.rule[key] = text
            elif len(text) == 8:
                self.until = ("date", date_value(text).date())
            elif text.endswith("Z"):
                self.until = ("instant", wall(text).replace(tzinfo=UTC))
            else:
                self.until = ("instant", resolve(self.zone, wall(text)))

    def after_until(self, naive, instant):
        if self.until is None:
            return False
        kind, limit = self.until
        return naive.date() > limit if kind == "date" else instant > limit

    def rule_dates(self, dtstart, bound):
        """dateutil's dates of the rule (COUNT and UNTIL aside) from dtstart up to the wall clock
        `bound`. A WEEKLY rule with BYSETPOS starts at its week's first day (see 6 above)."""
        parts = dict(self.rule)
        start = dtstart
        if parts["FREQ"] == "WEEKLY" and "BYSETPOS" in parts:
            week_start = WEEKDAYS.index(parts.get("WKST", "MO"))
            start = dtstart - timedelta(days=(dtstart.weekday() - week_start) % 7)
            parts.setdefault("BYDAY", WEEKDAYS[dtstart.weekday()])
        text = "RRULE:" + ";".join("%s=%s" % item for item in parts.items())
        return (d for d in rrulestr(text, dtstart=start).replace(until=bound) if d >= dtstart)

    def first_date(self):
        """The rule's first date-time at or after the anchor (COUNT and UNTIL aside), or None."""
        if not hasattr(self, "_first"):
            self._first = next(self.rule_dates(self.anchor, self.anchor + timedelta(days=366 * 12)), None)
        return self._first

    def anchor_status(self):
        if self.rule is None:
            return "ok"
        if self.until and self.after_until(self.anchor, resolve(self.zone, self.anchor)):
            return "until"
        return "ok" if self.first_date() == self.anchor else "noproduce"

    def value(self, params, text, dtstart):
        """(wall clock, instant) of a DATE-TIME or DATE value; `local` as the service names it."""
        if params.get("VALUE") == "DATE" or len(text) == 8:
            naive = datetime.combine(date_value(text).date(), dtstart.time())
            return naive, resolve(self.zone, naive)
        if text.endswith("Z"):
            instant = wall(text).replace(tzinfo=UTC)
            return local_of(self.zone, instant), instant
        zone = ZoneInfo(params["TZID"]) if "TZID" in params else self.zone
        instant = resolve(zone, wall(text))
        return (wall(text) if zone.key == self.zone.key else local_of(self.zone, instant)), instant

    def period_end(self, params, start_text, end_text, instant):
        match = DURATION.match(end_text)
        if not match:
            return self.value(params, end_text, None)[1]
        weeks, days, hours, minutes, seconds = (int(g) if g else 0 for g in match.groups())
        days += 7 * weeks
        if days:  # nominal days on the wall clock of the start's own zone
            zone = UTC if start_text.endswith("Z") else ZoneInfo(params.get("TZID", self.zone.key))
            instant = resolve(zone, local_of(zone, instant) + timedelta(days=days))
        return instant + timedelta(hours=hours, minutes=minutes, seconds=seconds)

    def expand(self, dtstart):
        start_instant = resolve(self.zone, dtstart)
        if self.all_day:
            last_day = timedelta(days=self.length - 1)
            end_clock = datetime.strptime("235959", "%H%M%S").time()
        else:
            dtend = dtstart + timedelta(minutes=self.length)
            duration = max(timedelta(0), resolve(self.zone, dtend) - start_instant)

        def end_of(naive, instant):
            if not self.all_day:
                return instant + duration
            return resolve(self.zone, datetime.combine(naive.date() + last_day, end_clock))

        named = {}  # instant -> (wall clock, end); the rule's entries first
        rset = rruleset()
        if self.rule is None:
            named[start_instant] = (dtstart, end_of(dtstart, start_instant))
        else:
            bound = local_of(self.zone, self.to) + timedelta(days=2)
            for number, naive in enumerate(self.rule_dates(dtstart, bound)):
                instant = resolve(self.zone, naive)
                if number == self.count or instant >= self.to or self.after_until(naive, instant):
                    break
                named[instant] = (naive, end_of(naive, instant))
        for instant in named:
            rset.rdate(instant)
        for params, values in self.rdates:
            for text in values.split(","):
                start_text, _, end_text = text.partition("/")
                naive, instant = self.value(params, start_text, dtstart)
                end = self.period_end(params, start_text, end_text, instant) if end_text else end_of(naive, instant)
                named.setdefault(instant, (naive, end))
                rset.rdate(instant)
        for params, values in self.exdates:
            for text in values.split(","):
                rset.exdate(self.value(params, text, dtstart)[1])
        occurrences = []
        for instant in rset:
            if instant >= self.to:
                break
            naive, end = named[instant]
            occurrences.append("%s/%s/%s" % (fmt(naive), fmt_utc(instant), fmt_utc(end)))
        return occurrences

    def answer(self):
        status = self.anchor_status()
        dtstart = self.anchor if self.rule is None else self.first_date()
        if dtstart is None:
            return [self.id, status, "-", "-", "-", "-"]
        if self.until and self.after_until(dtstart, resolve(self.zone, dtstart)):
            return [self.id, status, fmt(dtstart), "until", "0", ""]
        occurrences = self.expand(dtstart)
        return [self.id, status, fmt(dtstart), "ok", str(len(occurrences)), " ".join(occurrences)]


def main():
    for line in sys.stdin:
        line = line.rstrip("\n")
        if line:
            print("\t".join(Case(line.split("\t")).answer()))


if __name__ == "__main__":
    main()
