// libFuzzer target: the iCalendar import's parsing and mapping (cal/api/ical/ical_import.h), then
// the validation of each mapped VEVENT as POST /events validates it (without a database). Never a
// crash or an exception other than the validation's ApiError; a failure names a line of the body
// (or none), imports nothing; every mapped VEVENT is an object of valid UTF-8 texts with the
// dates, a zone the service knows, and all_day; its recurrence lines are UTF-8 and the expander's
// parser takes them without throwing; an override (RECURRENCE-ID) has a UID, an original start and
// no recurrence of its own.
#include "fuzz_support.h"
#include "cal/api/ical/ical_import.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/routes.h"
#include "cal/core/dates/dates.h"
#include "cal/core/dates/recurrence.h"
#include "cal/core/i18n/i18n.h"
#include "cal/core/text/slug.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using caltest_fuzz::require;

namespace {

void require_utf8(const rapidjson::Value& v) {
  if (v.IsString())
    require(cal::is_valid_utf8({v.GetString(), v.GetStringLength()}), "a mapped text is not UTF-8");
  if (v.IsArray())
    for (const auto& x : v.GetArray()) require_utf8(x);
  if (v.IsObject())
    for (const auto& m : v.GetObject()) require_utf8(m.value);
}

const std::vector<cal::ParamSpec>& create_specs() {
  for (const cal::Route& route : cal::route_table())
    if (route.pattern == "/events")
      if (const cal::Endpoint* e = route.endpoint_for("POST")) return e->params;
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  const cal::IcalImportOptions options{"Europe/Berlin", "cal.example", 20};
  const cal::IcalImport r = cal::parse_ical_import(body, options);
  const long long lines = static_cast<long long>(std::count(body.begin(), body.end(), '\n')) + 1;
  if (r.failure != cal::IcalFailure::kNone) {
    require(r.events.empty(), "a failed import has events");
    require(!r.problem.msgid.empty(), "a failure without a message");
    require(r.problem.line >= 0 && r.problem.line <= lines, "a failure names a line the body does not have");
    return 0;
  }
  require(!r.events.empty() && r.events.size() <= options.max_events, "event count outside 1..max_events");
  static const cal::Locale locale{"en_US"};
  for (const cal::IcalEventInput& in : r.events) {
    require(in.body.IsObject(), "a mapped VEVENT is not an object");
    require_utf8(in.body);
    require(in.line >= 1 && in.line <= lines, "a VEVENT names a line the body does not have");
    if (in.problem) {
      require(!in.problem->field.empty() && !in.problem->msgid.empty(),
              "a VEVENT problem without field or message");
      continue;
    }
    for (const char* name : {"start_date", "end_date", "timezone"}) {
      const auto it = in.body.FindMember(name);
      require(it != in.body.MemberEnd() && it->value.IsString(), "a mapped VEVENT lacks a date or its zone");
    }
    require(in.body.HasMember("all_day") && in.body["all_day"].IsBool(), "a mapped VEVENT lacks all_day");
    require(cal::TimeZone::find(in.body["timezone"].GetString()).has_value(), "a mapped zone is unknown");
    for (const std::string& line : in.recurrence)
      require(cal::is_valid_utf8(line), "a recurrence line is not UTF-8");
    if (in.recurrence_id) {
      require(in.recurrence.empty() && !in.uid.empty(), "an override with a recurrence or without a UID");
      require(cal::parse_sql_date_time(in.recurrence_id->wall).has_value(), "an override's original start");
    } else if (!in.recurrence.empty()) {
      const cal::LocalDateTime start{2026, 7, 5, 20, 0, 0};
      const cal::FirstOccurrence first{start, start, *cal::TimeZone::find(in.body["timezone"].GetString()),
                                       in.body["all_day"].GetBool()};
      (void)cal::parse_recurrence(in.recurrence, first);  // refusals are answers, never exceptions
    }
    cal::ParamSources sources;
    sources.body = &in.body;
    try {
      (void)cal::validate_params(create_specs(), sources, locale);
    } catch (const cal::ApiError&) {
      // Refused like a JSON body would be: the import answers 400 naming the VEVENT.
    }
  }
  return 0;
}
