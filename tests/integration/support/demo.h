// Test support for `calendarctl demo` (docs/calendarctl.md): a run on the stack under test and
// its summary line, from which the ids of its venues, organizers and images follow (and, without
// series, its events').
#pragma once

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "support/commands.h"

namespace caltest {

// One run's summary and the ids it implies.
struct DemoRun {
  long long events = 0, venues = 0, organizers = 0, images = 0, base = 0;
  std::string prefix;  // "d<seed>-<base>", in every slug of the run
  // The first one-off event's id when the run wrote no series (--series-share 0).
  long long first_event() const { return base + venues + organizers + images; }
};

// Runs `calendarctl demo --events N --seed S` with `options` appended, and reads its summary.
inline DemoRun run_demo(long long events, long long seed, const std::string& options = "") {
  const Run r = run(ctl() + " demo --events " + std::to_string(events) + " --seed " + std::to_string(seed) +
                    (options.empty() ? "" : " " + options));
  REQUIRE_MESSAGE(r.exit_code == 0, r.out);
  // "demo: added E events, V venues, O organizers, I images, C categories, T tags in S s (slug
  // prefix dSEED-BASE)\n", read with sscanf (GCC 12's <regex> trips -Werror in the ASan build).
  DemoRun d;
  long long categories = 0, tags = 0, seed_read = 0;
  double seconds = 0;
  int consumed = 0;
  const int fields = std::sscanf(r.out.c_str(),
                                 "demo: added %lld events, %lld venues, %lld organizers, %lld images, %lld "
                                 "categories, %lld tags in %lf s (slug prefix d%lld-%lld)\n%n",
                                 &d.events, &d.venues, &d.organizers, &d.images, &categories, &tags, &seconds,
                                 &seed_read, &d.base, &consumed);
  REQUIRE_MESSAGE(fields == 9, r.out);
  REQUIRE_MESSAGE(static_cast<std::size_t>(consumed) == r.out.size(), r.out);
  CHECK(seed_read == seed);
  d.prefix = "d" + std::to_string(seed_read) + "-" + std::to_string(d.base);
  CHECK(d.events == events);
  return d;
}

}  // namespace caltest
