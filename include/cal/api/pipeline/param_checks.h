// The per-field rules of the route table (docs/api.md §1.3): each is a ParamCheck that the validator runs
// on a value after its type coercion, so every bad field of a request is reported in one 400.
// Rules that need the store (ids that must exist) pass when CheckContext::db is null.
#pragma once

#include "cal/api/pipeline/params.h"

namespace cal {

// An IANA time zone id or UTC±H[:MM].
std::string check_time_zone(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// An event website: null or "" (none), or an absolute http(s) URL.
std::string check_event_website(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// A venue/organizer text detail: its column's length, and URL or e-mail form where it has one.
std::string check_linked_text(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// An event's recurrence: null, a text of lines, or an array of texts (the lines' own rules are
// checked on write, against the event's start).
std::string check_recurrence(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// An event cost: null, text, a number, or an array of texts and numbers; at most 255 characters.
std::string check_cost(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// An image: none, an absolute http(s) URL, or the id of a known image (docs/api.md §3.4).
std::string check_image(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// An author: an existing user id.
std::string check_author(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// An event's categories/tags input (taxonomy from the parameter name): ids that exist, or names.
std::string check_event_terms(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// An event's venue input: none, an id of a live venue, or venue data valid for POST /venues.
std::string check_event_venue(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// An event's organizer input: ids of live organizers or organizer data valid for POST /organizers.
std::string check_event_organizers(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// The categories/tags filter of GET /events (taxonomy from the parameter name): existing ids or slugs.
std::string resolve_term_filter(const ParamSpec&, ParamValue&, const Locale&, const CheckContext&);
// The venue/organizer filters of GET /events: ids of existing records of that kind.
std::string check_venue_ids(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
std::string check_organizer_ids(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// An existing event id (post_parent, the `event` filter of venues/organizers).
std::string check_event_id(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// The `post`/`event` filter of categories/tags: an event the caller may read.
std::string check_readable_event(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// include/exclude of GET /categories and GET /tags: ids of existing terms of that taxonomy.
std::string check_category_ids(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
std::string check_tag_ids(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// A category parent: 0 (top level) or an existing category id.
std::string check_category_parent(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// A term name: non-blank, at most 200 characters.
std::string check_term_name(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);
// An explicit term slug: something left after normalization.
std::string check_term_slug(const ParamSpec&, const ParamValue&, const Locale&, const CheckContext&);

}  // namespace cal
