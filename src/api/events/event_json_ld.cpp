// schema.org JSON-LD of a single event (see cal/api/events/event_json_ld.h). Empty properties are left
// out, as schema.org consumers expect.
#include "cal/api/events/event_json_ld.h"

#include "cal/api/linked/linked_records.h"
#include "cal/api/posts/post_record.h"

namespace cal {
namespace {

void write_if(JsonWriter& w, std::string_view key, std::string_view value) {
  if (!value.empty()) write_member(w, key, value);
}

const Image* image_of(const std::vector<Image>& images, long long id) {
  for (const Image& i : images)
    if (id != 0 && i.id == id) return &i;
  return nullptr;
}

void write_offers(JsonWriter& w, const std::string& event_url, const std::string& cost_text,
                  const CostDetails& cost) {
  w.StartObject();
  if (cost.values.size() > 1) {
    write_member(w, "@type", "AggregateOffer");
    write_member(w, "lowPrice", cost.values.front());
    write_member(w, "highPrice", cost.values.back());
  } else {
    write_member(w, "@type", "Offer");
    write_member(w, "price", cost.values.empty() ? cost_text : cost.values.front());
  }
  write_if(w, "priceCurrency", cost.currency_code);
  write_member(w, "url", event_url);
  w.EndObject();
}

}  // namespace

void write_event_json_ld(JsonWriter& w, const RequestContext& ctx, const Event& event,
                         const EventRelations& rel, const CostDetails& cost) {
  const EventDetails& d = event.details;
  const TimeZone zone = TimeZone::find(d.timezone).value_or(TimeZone::utc());
  const auto instant = [](const std::string& utc) {
    return from_utc_date_time(parse_sql_date_time(utc).value_or(LocalDateTime{}));
  };
  const std::string url = public_url(ctx, kEventKind, event.post.slug);
  w.StartObject();
  write_member(w, "@context", "http://schema.org");
  write_member(w, "@type", "Event");
  write_member(w, "name", event.post.title);
  write_if(w, "description", event.post.excerpt.empty() ? event.post.content : event.post.excerpt);
  if (const Image* image = image_of(rel.images, event.post.image_id)) write_member(w, "image", image->url);
  write_member(w, "url", url);
  write_member(w, "startDate", format_iso8601(instant(d.start_utc), zone));
  write_member(w, "endDate", format_iso8601(instant(d.end_utc), zone));
  if (const auto v = rel.venues.find(event.venue_id); v != rel.venues.end()) {
    write_key(w, "location");
    write_venue_json_ld(w, ctx, v->second, rel.images);
  }
  std::vector<const Organizer*> organizers;
  if (const auto ids = rel.organizer_ids.find(event.post.id); ids != rel.organizer_ids.end())
    for (long long id : ids->second)
      if (const auto o = rel.organizers.find(id); o != rel.organizers.end()) organizers.push_back(&o->second);
  if (organizers.size() == 1) {
    write_key(w, "organizer");
    write_organizer_json_ld(w, ctx, *organizers.front(), rel.images);
  } else if (organizers.size() > 1) {
    write_key(w, "organizer");
    w.StartArray();
    for (const Organizer* o : organizers) write_organizer_json_ld(w, ctx, *o, rel.images);
    w.EndArray();
  }
  if (!d.cost.empty()) {
    write_key(w, "offers");
    write_offers(w, url, d.cost, cost);
  }
  w.EndObject();
}

}  // namespace cal
