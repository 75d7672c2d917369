// Internal to the iCalendar module: libical, loaded when first needed instead of at start-up.
// Linked normally, libical and the ICU libraries it pulls in (relocations and page faults) were
// part of starting every CGI process, though only feeds and imports use them. The
// functions the module calls are reached through libical(), which opens the library once
// (dlopen of the SONAME of the library the build compiled against, CAL_LIBICAL_SONAME) and
// resolves them all. A FastCGI server loads it at start (load_ical_library) so that its first feed
// waits for nothing and a missing library shows in the log at once.
#pragma once

#include <libical/ical.h>

namespace cal {

// Every libical function the module calls; a call elsewhere fails to link (the service does not
// link libical), so this list cannot fall behind.
#define CAL_LIBICAL_FUNCTIONS(X)       \
  X(icalcomponent_add_component)       \
  X(icalcomponent_add_property)        \
  X(icalcomponent_as_ical_string_r)    \
  X(icalcomponent_free)                \
  X(icalcomponent_get_first_component) \
  X(icalcomponent_get_first_property)  \
  X(icalcomponent_get_next_component)  \
  X(icalcomponent_get_next_property)   \
  X(icalcomponent_get_timezone)        \
  X(icalcomponent_isa)                 \
  X(icalcomponent_new)                 \
  X(icalcomponent_new_clone)           \
  X(icaldurationtype_as_ical_string_r) \
  X(icaldurationtype_null_duration)    \
  X(icalerror_clear_errno)             \
  X(icalerror_set_errors_are_fatal)    \
  X(icalmemory_free_buffer)            \
  X(icalparameter_get_fmttype)         \
  X(icalparameter_get_range)           \
  X(icalparameter_get_tzid)            \
  X(icalparameter_new_cn)              \
  X(icalparameter_new_fmttype)         \
  X(icalparameter_new_tzid)            \
  X(icalparameter_new_value)           \
  X(icalparser_parse_string)           \
  X(icalproperty_add_parameter)        \
  X(icalproperty_as_ical_string_r)     \
  X(icalproperty_free)                 \
  X(icalproperty_get_categories)       \
  X(icalproperty_get_description)      \
  X(icalproperty_get_dtend)            \
  X(icalproperty_get_dtstart)          \
  X(icalproperty_get_duration)         \
  X(icalproperty_get_exdate)           \
  X(icalproperty_get_first_parameter)  \
  X(icalproperty_get_location)         \
  X(icalproperty_get_property_name)    \
  X(icalproperty_get_rdate)            \
  X(icalproperty_get_recurrenceid)     \
  X(icalproperty_get_rrule)            \
  X(icalproperty_get_status)           \
  X(icalproperty_get_summary)          \
  X(icalproperty_get_uid)              \
  X(icalproperty_get_url)              \
  X(icalproperty_get_x)                \
  X(icalproperty_get_x_name)           \
  X(icalproperty_new_calscale)         \
  X(icalproperty_new_categories)       \
  X(icalproperty_new_contact)          \
  X(icalproperty_new_created)          \
  X(icalproperty_new_description)      \
  X(icalproperty_new_dtend)            \
  X(icalproperty_new_dtstamp)          \
  X(icalproperty_new_dtstart)          \
  X(icalproperty_new_from_string)      \
  X(icalproperty_new_geo)              \
  X(icalproperty_new_lastmodified)     \
  X(icalproperty_new_location)         \
  X(icalproperty_new_method)           \
  X(icalproperty_new_organizer)        \
  X(icalproperty_new_prodid)           \
  X(icalproperty_new_recurrenceid)     \
  X(icalproperty_new_refreshinterval)  \
  X(icalproperty_new_sequence)         \
  X(icalproperty_new_status)           \
  X(icalproperty_new_summary)          \
  X(icalproperty_new_tzid)             \
  X(icalproperty_new_tzname)           \
  X(icalproperty_new_tzoffsetfrom)     \
  X(icalproperty_new_tzoffsetto)       \
  X(icalproperty_new_uid)              \
  X(icalproperty_new_url)              \
  X(icalproperty_new_version)          \
  X(icalproperty_new_x)                \
  X(icalproperty_set_value)            \
  X(icalproperty_set_x_name)           \
  X(icalproperty_string_to_kind)       \
  X(icaltime_is_null_time)             \
  X(icaltime_is_utc)                   \
  X(icaltime_null_date)                \
  X(icaltime_null_time)                \
  X(icaltimezone_get_component)        \
  X(icaltimezone_get_utc_offset)       \
  X(icaltimezone_get_utc_timezone)     \
  X(icalvalue_new_text)

struct LibIcal {
#define CAL_LIBICAL_POINTER(name) decltype(&::name) name = nullptr;
  CAL_LIBICAL_FUNCTIONS(CAL_LIBICAL_POINTER)
#undef CAL_LIBICAL_POINTER
};

// The loaded library (thread-safe; loaded on the first call). Throws std::runtime_error when the
// library or one of the functions cannot be found; a later call tries again.
const LibIcal& libical();

}  // namespace cal
