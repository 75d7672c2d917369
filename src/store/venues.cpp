// SQL of venue details and of event links seen from venues (see cal/store/venues.h).
#include "cal/store/venues.h"

#include "store/linked_rows.h"

namespace cal {
namespace {

SqlValue optional_number(const std::optional<double>& v) { return v ? SqlValue(*v) : SqlValue(nullptr); }

}  // namespace

const char* const kVenueDetailColumns =
    "d.venue_id, d.address, d.city, d.country, d.province, d.state, d.zip, d.phone, d.website, "
    "d.stateprovince, "
    "d.show_map, d.show_map_link, d.geo_lat, d.geo_lng";

VenueDetails read_venue_details(const Rows& rows, int c) {
  VenueDetails d;
  if (rows.is_null(c)) return d;
  d.address = rows.text(c + 1);
  d.city = rows.text(c + 2);
  d.country = rows.text(c + 3);
  d.province = rows.text(c + 4);
  d.state = rows.text(c + 5);
  d.zip = rows.text(c + 6);
  d.phone = rows.text(c + 7);
  d.website = rows.text(c + 8);
  d.stateprovince = rows.text(c + 9);
  d.show_map = rows.integer(c + 10) != 0;
  d.show_map_link = rows.integer(c + 11) != 0;
  if (!rows.is_null(c + 12)) d.geo_lat = rows.number(c + 12);
  if (!rows.is_null(c + 13)) d.geo_lng = rows.number(c + 13);
  return d;
}

std::vector<Venue> find_venues(Db& db, const std::vector<long long>& ids, std::vector<Image>* images) {
  std::vector<Venue> out;
  if (ids.empty()) return out;
  std::vector<SqlValue> args(ids.begin(), ids.end());
  Rows rows = db.query(std::string("SELECT ") + kPostColumns + ", " + kVenueDetailColumns +
                           (images ? std::string(", ") + kImageColumns : std::string()) +
                           " FROM posts p LEFT JOIN venue_details d ON d.venue_id = p.id" +
                           (images ? kImageJoin : "") + " WHERE p.type = 'venue' AND p.id IN (" +
                           placeholders(ids.size()) + ")",
                       args);
  constexpr int c = kPostColumnCount;
  constexpr int image = c + kVenueDetailColumnCount;
  while (rows.next()) {
    Venue v;
    v.post = read_post_row(rows);
    v.details = read_venue_details(rows, c);
    if (images && !rows.is_null(image)) images->push_back(read_image(rows, image));
    out.push_back(std::move(v));
  }
  return out;
}

void save_venue_details(Db& db, long long venue_id, const VenueDetails& d) {
  db.execute(
      "INSERT INTO venue_details (venue_id, address, city, country, province, state, zip, phone, website, "
      "stateprovince, show_map, show_map_link, geo_lat, geo_lng) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
      "?, ?) "
      "ON DUPLICATE KEY UPDATE address = VALUES(address), city = VALUES(city), country = VALUES(country), "
      "province = VALUES(province), state = VALUES(state), zip = VALUES(zip), phone = VALUES(phone), "
      "website = VALUES(website), stateprovince = VALUES(stateprovince), show_map = VALUES(show_map), "
      "show_map_link = VALUES(show_map_link), geo_lat = VALUES(geo_lat), geo_lng = VALUES(geo_lng)",
      {venue_id, d.address, d.city, d.country, d.province, d.state, d.zip, d.phone, d.website,
       d.stateprovince, d.show_map, d.show_map_link, optional_number(d.geo_lat), optional_number(d.geo_lng)});
}

void unlink_venue_from_events(Db& db, long long venue_id) {
  db.execute("DELETE FROM event_venues WHERE venue_id = ?", {venue_id});
}

}  // namespace cal
