// How The Events Calendar (TEC) reads its stored post meta, as pure functions of the stored text,
// so an imported record shows what TEC's REST API showed (docs/importing-wordpress.md). Each rule
// names the TEC reading it copies; the two different truthiness rules are both needed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cal {

// The site zone as TEC names it (Timezones::wp_timezone_string): `timezone_string` when set,
// else "UTC+<gmt_offset>" with the offset as WordPress stores it ("UTC+5.5", "UTC-5", "UTC+0").
std::string tec_site_timezone(std::string_view timezone_string, std::string_view gmt_offset);

// Our zone name for a TEC zone: IANA ids as they are, "UTC", and offsets in hours, decimal
// ("UTC+5.5" → "UTC+5:30", "UTC+5.75" → "UTC+5:45", "UTC+0" → "UTC"). nullopt for an unknown
// zone or an empty text (the caller falls back to the site zone).
std::optional<std::string> our_timezone(std::string_view tec_zone);

// PHP's (bool) cast of a meta value, how TEC's REST reads the event map flags: only "" and "0"
// are false, so a legacy "FALSE" reads true.
bool php_bool(std::string_view value);

// tribe_is_truthy(), how TEC reads venue map flags and the all-day flag: "1", "yes", "true",
// "on", "y", "enable", "enabled" in any case (after trimming) are true, everything else false.
bool tribe_is_truthy(std::string_view value);

// The cost text our `cost` field is stored as, so that it displays what TEC's
// get_formatted_event_cost() shows for the event's `_EventCost` rows: the lowest and highest
// number of all rows, each with the currency symbol (the event's, else the one written in the
// row, else the site's default) before or after it; a lone row without a number as it is.
// "" when no row has anything.
std::string tec_cost_text(const std::vector<std::string>& cost_rows, std::string_view symbol,
                          bool symbol_after);

// A WordPress trashed slug ("name__trashed", "name__trashed-2") without its suffix; other slugs
// as they are.
std::string untrashed_slug(std::string_view slug);

}  // namespace cal
