// The names of the route table's parameters as constants. ParamSpec::name and every Params
// accessor take a ParamName, never a string, so a misspelled name does not compile; the route
// table (routes.cpp) declares which route takes which, and a unit test checks that every
// constant here is declared by some route, so the table stays the one list of parameters.
#pragma once

#include <string_view>

namespace cal {

class ParamName {
 public:
  constexpr explicit ParamName(std::string_view text) : text_(text) {}
  constexpr std::string_view text() const { return text_; }
  // Read as text wherever a name is written out (messages, the namespace index, OpenAPI).
  constexpr operator std::string_view() const { return text_; }
  friend constexpr bool operator==(ParamName a, ParamName b) { return a.text_ == b.text_; }
  friend constexpr bool operator==(ParamName a, std::string_view b) { return a.text_ == b; }

 private:
  std::string_view text_;
};

namespace param {

inline constexpr ParamName kAddress{"address"};
inline constexpr ParamName kAllDay{"all_day"};
inline constexpr ParamName kAuthor{"author"};
inline constexpr ParamName kCategories{"categories"};
inline constexpr ParamName kCity{"city"};
inline constexpr ParamName kContext{"context"};
inline constexpr ParamName kCost{"cost"};
inline constexpr ParamName kCountry{"country"};
inline constexpr ParamName kDate{"date"};
inline constexpr ParamName kDateUtc{"date_utc"};
inline constexpr ParamName kDescription{"description"};
inline constexpr ParamName kEmail{"email"};
inline constexpr ParamName kEndDate{"end_date"};
inline constexpr ParamName kEndsAfter{"ends_after"};
inline constexpr ParamName kEndsBefore{"ends_before"};
inline constexpr ParamName kEvent{"event"};
inline constexpr ParamName kExcerpt{"excerpt"};
inline constexpr ParamName kExclude{"exclude"};
inline constexpr ParamName kFeatured{"featured"};
inline constexpr ParamName kForce{"force"};
inline constexpr ParamName kGeoLat{"geo_lat"};
inline constexpr ParamName kGeoLng{"geo_lng"};
inline constexpr ParamName kGeoloc{"geoloc"};
inline constexpr ParamName kGeolocLat{"geoloc_lat"};
inline constexpr ParamName kGeolocLng{"geoloc_lng"};
inline constexpr ParamName kHasEvents{"has_events"};
inline constexpr ParamName kHideEmpty{"hide_empty"};
inline constexpr ParamName kHideFromListings{"hide_from_listings"};
inline constexpr ParamName kHideSubsequentRecurrences{"hide_subsequent_recurrences"};
inline constexpr ParamName kIcal{"ical"};
inline constexpr ParamName kExpand{"expand"};
inline constexpr ParamName kId{"id"};
inline constexpr ParamName kImage{"image"};
inline constexpr ParamName kInclude{"include"};
inline constexpr ParamName kKinds{"kinds"};
inline constexpr ParamName kModifiedAfter{"modified_after"};
inline constexpr ParamName kModifiedBefore{"modified_before"};
inline constexpr ParamName kName{"name"};
inline constexpr ParamName kNamespace{"namespace"};
inline constexpr ParamName kOnlyWithUpcoming{"only_with_upcoming"};
inline constexpr ParamName kOrder{"order"};
inline constexpr ParamName kOrderby{"orderby"};
inline constexpr ParamName kOrganizer{"organizer"};
inline constexpr ParamName kPage{"page"};
inline constexpr ParamName kParent{"parent"};
inline constexpr ParamName kPassword{"password"};
inline constexpr ParamName kPerPage{"per_page"};
inline constexpr ParamName kPhone{"phone"};
inline constexpr ParamName kPost{"post"};
inline constexpr ParamName kPostParent{"post_parent"};
inline constexpr ParamName kProvince{"province"};
inline constexpr ParamName kRecurrence{"recurrence"};
inline constexpr ParamName kScope{"scope"};
inline constexpr ParamName kSearch{"search"};
inline constexpr ParamName kSince{"since"};
inline constexpr ParamName kShowMap{"show_map"};
inline constexpr ParamName kShowMapLink{"show_map_link"};
inline constexpr ParamName kSlug{"slug"};
inline constexpr ParamName kStartDate{"start_date"};
inline constexpr ParamName kStartsAfter{"starts_after"};
inline constexpr ParamName kStartsBefore{"starts_before"};
inline constexpr ParamName kState{"state"};
inline constexpr ParamName kStateprovince{"stateprovince"};
inline constexpr ParamName kStatus{"status"};
inline constexpr ParamName kSticky{"sticky"};
inline constexpr ParamName kStrictDates{"strict_dates"};
inline constexpr ParamName kTags{"tags"};
inline constexpr ParamName kTicketed{"ticketed"};
inline constexpr ParamName kTimezone{"timezone"};
inline constexpr ParamName kTitle{"title"};
inline constexpr ParamName kVenue{"venue"};
inline constexpr ParamName kWebsite{"website"};
inline constexpr ParamName kZip{"zip"};

// Every constant above, for the test that the route table declares each.
inline constexpr ParamName kAll[] = {kAddress,
                                     kAllDay,
                                     kAuthor,
                                     kCategories,
                                     kCity,
                                     kContext,
                                     kCost,
                                     kCountry,
                                     kDate,
                                     kDateUtc,
                                     kDescription,
                                     kEmail,
                                     kEndDate,
                                     kEndsAfter,
                                     kEndsBefore,
                                     kEvent,
                                     kExcerpt,
                                     kExclude,
                                     kFeatured,
                                     kForce,
                                     kGeoLat,
                                     kGeoLng,
                                     kGeoloc,
                                     kGeolocLat,
                                     kGeolocLng,
                                     kHasEvents,
                                     kHideEmpty,
                                     kHideFromListings,
                                     kId,
                                     kImage,
                                     kInclude,
                                     kName,
                                     kNamespace,
                                     kOnlyWithUpcoming,
                                     kOrder,
                                     kOrderby,
                                     kOrganizer,
                                     kPage,
                                     kParent,
                                     kPassword,
                                     kPerPage,
                                     kPhone,
                                     kPost,
                                     kPostParent,
                                     kProvince,
                                     kRecurrence,
                                     kScope,
                                     kSearch,
                                     kShowMap,
                                     kShowMapLink,
                                     kSlug,
                                     kStartDate,
                                     kStartsAfter,
                                     kStartsBefore,
                                     kState,
                                     kStateprovince,
                                     kStatus,
                                     kSticky,
                                     kStrictDates,
                                     kTags,
                                     kTicketed,
                                     kTimezone,
                                     kTitle,
                                     kVenue,
                                     kWebsite,
                                     kZip,
                                     kIcal,
                                     kExpand,
                                     kHideSubsequentRecurrences,
                                     kKinds,
                                     kModifiedAfter,
                                     kSince,
                                     kModifiedBefore};

}  // namespace param
}  // namespace cal
