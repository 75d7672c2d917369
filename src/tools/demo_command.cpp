// `calendarctl demo` (see demo_command.h).
#include "demo_command.h"
#include "command_options.h"
#include "demo_series.h"

#include "cal/core/text/numbers.h"
#include "cal/store/db.h"
#include "cal/store/demo_data.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>

namespace cal {
namespace {

int usage(const std::string& message) {
  std::cerr << "calendarctl: " << message << "\n(see calendarctl --help)\n";
  return 2;
}

// A decimal number without sign or spaces in min..max.
std::optional<long long> number(const std::string& text, long long min, long long max) {
  const auto value = cal::parse_id(text);
  if (!value || *value < min || *value > max) return std::nullopt;
  return value;
}

// The percentage of N made of series' occurrences when --series-share is not given
// (docs/calendarctl.md says why).
constexpr long long kDefaultSeriesShare = 5;

std::string today_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char out[16];
  std::strftime(out, sizeof out, "%Y-%m-%d", &tm);
  return out;
}

}  // namespace

bool take_demo_args(std::vector<const char*>& args, DemoArgs& out) {
  return take_options(
      args, {{"--events", &out.events}, {"--seed", &out.seed}, {"--series-share", &out.series_share}});
}

int run_demo(const Config& config, const std::vector<std::string>& positional, const DemoArgs& args) {
  if (positional.size() != 1)
    return usage("demo takes no arguments besides --events N, --seed S and --series-share P");
  if (!args.events) return usage("demo needs --events N");
  const auto events = number(*args.events, 1, kDemoMaxEvents);
  if (!events) return usage("--events must be a whole number from 1 to 10000000");
  const auto seed = number(args.seed.value_or("1"), 0, 4294967295LL);
  if (!seed) return usage("--seed must be a whole number from 0 to 4294967295");
  const auto share = number(args.series_share.value_or(std::to_string(kDefaultSeriesShare)), 0, 50);
  if (!share) return usage("--series-share must be a whole number from 0 to 50");

  const auto start = std::chrono::steady_clock::now();
  Db db(config.database);
  const DemoOptions options{*events, *seed, config.site.timezone, today_utc()};
  DemoRun run = start_demo_data(db, options);
  // The series first: their occurrences are counted as they are written, and the one-off events
  // make up the rest of N exactly.
  const DemoSeriesCount series = add_demo_series(db, config, options, run, *events * *share / 100);
  add_demo_events(db, options, run, *events - series.occurrences);
  run.summary.events += series.occurrences;
  const DemoSummary& s = run.summary;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "%.1f", seconds);
  std::cout << "demo: added " << s.events << " events, " << s.venues << " venues, " << s.organizers
            << " organizers, " << s.images << " images, " << s.categories << " categories, " << s.tags
            << " tags in " << elapsed << " s (slug prefix " << s.slug_prefix << ")\n";
  return 0;
}

}  // namespace cal
