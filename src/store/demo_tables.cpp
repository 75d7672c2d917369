// The fixed vocabularies of the demo dataset and its time zone tables (see cal/store/demo_data.h).
// Kept apart from the SQL so the generator's inputs can be read and unit-tested on their own.
#include "cal/core/dates/dates.h"
#include "cal/store/demo_data.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace cal {

DemoScale demo_scale(long long events) {
  // About one venue per 500 events and one organizer per 1,250 (2,000 and 800 at a million),
  // never fewer than one venue per city; organizers a multiple of 10 so that the 1-3 picks per
  // event (stride 97, see demo_data.cpp) are always distinct.
  const long long venues =
      std::clamp<long long>(events / 500, static_cast<long long>(demo_cities().size()), 2000);
  const long long organizers = std::clamp<long long>((events / 12500) * 10, 10, 800);
  const long long images = std::clamp<long long>(events / 5000, 10, 200);
  return {venues, organizers, images};
}

std::vector<DemoZoneDay> demo_zone_days(const std::string& zone_name, const std::string& today_utc,
                                        int first_day, int last_day) {
  const auto zone = TimeZone::find(zone_name);
  if (!zone) throw std::runtime_error("unknown time zone '" + zone_name + "'");
  const auto today = parse_sql_date_time(today_utc + " 00:00:00");
  if (!today) throw std::runtime_error("malformed day '" + today_utc + "'");
  const Seconds day0 = from_utc_date_time(*today);
  std::vector<DemoZoneDay> out;
  for (int d = first_day; d <= last_day; ++d) {
    LocalDateTime local = to_utc_date_time(day0 + std::chrono::days(d));
    auto offset_at = [&](int hour, int minute) {
      LocalDateTime t = local;
      t.hour = hour;
      t.minute = minute;
      return zone->offset_seconds(zone->to_instant(t));
    };
    DemoZoneDay day{d, offset_at(0, 0), offset_at(23, 59), 86400};
    // Transitions of the zones used fall on whole hours after midnight (a gap's local hour moves
    // forward to the new offset, so it counts as after).
    if (day.early != day.late)
      for (int h = 1; h < 24; ++h)
        if (offset_at(h, 0) == day.late) {
          day.switch_second = h * 3600;
          break;
        }
    out.push_back(day);
  }
  return out;
}

namespace {

std::string slug_of(const std::string& name) {
  std::string out;
  for (unsigned char c : name) {
    if (std::isalnum(c))
      out += static_cast<char>(std::tolower(c));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::vector<DemoTermName> make_term_names() {
  struct Parent {
    const char* name;
    const char* children[4];
  };
  static const Parent parents[] = {
      {"Music", {"Jazz", "Rock & Pop", "Classical", "Folk"}},
      {"Arts & Culture", {"Exhibitions", "Theatre", "Literature", "Photography"}},
      {"Sports", {"Running", "Football", "Cycling", "Swimming"}},
      {"Food & Drink", {"Wine Tasting", "Cooking Classes", "Street Food", "Markets"}},
      {"Family", {"Kids", "Parents", "Seniors", "Picnics"}},
      {"Education", {"Workshops", "Lectures", "Languages", "Science"}},
      {"Business", {"Networking", "Startups", "Finance", "Marketing"}},
      {"Health & Wellness", {"Yoga", "Meditation", "Nutrition", "Fitness"}},
      {"Technology", {"Programming", "Design", "Hardware", "AI & Data"}},
      {"Community", {"Volunteering", "Neighborhood", "Politics", "Faith"}},
      {"Film", {"Premieres", "Documentaries", "Shorts", "Open Air Cinema"}},
      {"Outdoors", {"Hiking", "Gardening", "Birdwatching", "Camping"}},
  };
  static const char* const topics[] = {"jazz",    "rock",    "yoga",    "chess",    "poetry",
                                       "cinema",  "garden",  "market",  "dance",    "science",
                                       "history", "cooking", "theatre", "football", "design",
                                       "comedy",  "opera",   "running", "painting", "coding"};
  static const char* const qualifiers[] = {"for beginners", "for kids", "live",     "outdoors", "online",
                                           "night",         "weekend",  "free",     "festival", "club",
                                           "masterclass",   "meetup",   "workshop", "classics", "open stage"};
  std::vector<DemoTermName> out;
  for (const Parent& p : parents) out.push_back({p.name, slug_of(p.name), -1, false});
  for (int i = 0; i < static_cast<int>(std::size(parents)); ++i)
    for (const char* child : parents[i].children) out.push_back({child, slug_of(child), i, false});
  for (const char* q : qualifiers)
    for (const char* t : topics) {
      const std::string name = std::string(t) + " " + q;
      out.push_back({name, slug_of(name), -1, true});
    }
  return out;
}

}  // namespace

const std::vector<DemoTermName>& demo_term_names() {
  static const std::vector<DemoTermName> names = make_term_names();
  return names;
}

const std::vector<DemoCity>& demo_cities() {
  static const std::vector<DemoCity> cities = {
      {"New York", "United States", "US", "NY", "America/New_York", 40.7128, -74.0060, "10001", "+1 212",
       "Broadway|Lexington Avenue|West 44th Street"},
      {"Boston", "United States", "US", "MA", "America/New_York", 42.3601, -71.0589, "02108", "+1 617",
       "Tremont Street|Boylston Street|Beacon Street"},
      {"Chicago", "United States", "US", "IL", "America/Chicago", 41.8781, -87.6298, "60601", "+1 312",
       "Michigan Avenue|State Street|Wacker Drive"},
      {"Austin", "United States", "US", "TX", "America/Chicago", 30.2672, -97.7431, "78701", "+1 512",
       "Congress Avenue|South Lamar Boulevard|East 6th Street"},
      {"New Orleans", "United States", "US", "LA", "America/Chicago", 29.9511, -90.0715, "70112", "+1 504",
       "Bourbon Street|Frenchmen Street|Magazine Street"},
      {"Denver", "United States", "US", "CO", "America/Denver", 39.7392, -104.9903, "80202", "+1 303",
       "Larimer Street|Colfax Avenue|16th Street Mall"},
      {"Phoenix", "United States", "US", "AZ", "America/Phoenix", 33.4484, -112.0740, "85004", "+1 602",
       "Central Avenue|Washington Street|Roosevelt Street"},
      {"Los Angeles", "United States", "US", "CA", "America/Los_Angeles", 34.0522, -118.2437, "90012",
       "+1 213", "Sunset Boulevard|Grand Avenue|Melrose Avenue"},
      {"Seattle", "United States", "US", "WA", "America/Los_Angeles", 47.6062, -122.3321, "98101", "+1 206",
       "Pike Street|1st Avenue|Pine Street"},
      {"Toronto", "Canada", "CA", "Ontario", "America/Toronto", 43.6532, -79.3832, "M5V", "+1 416",
       "Queen Street West|King Street|Yonge Street"},
      {"Montréal", "Canada", "CA", "Quebec", "America/Toronto", 45.5017, -73.5673, "H2X", "+1 514",
       "Rue Sainte-Catherine|Boulevard Saint-Laurent|Rue Saint-Denis"},
      {"Vancouver", "Canada", "CA", "British Columbia", "America/Vancouver", 49.2827, -123.1207, "V6B",
       "+1 604", "Granville Street|Robson Street|Main Street"},
      {"London", "United Kingdom", "GB", "England", "Europe/London", 51.5074, -0.1278, "SW1A", "+44 20",
       "Baker Street|Charing Cross Road|Brick Lane"},
      {"Manchester", "United Kingdom", "GB", "England", "Europe/London", 53.4808, -2.2426, "M1", "+44 161",
       "Deansgate|Oldham Street|Portland Street"},
      {"Edinburgh", "United Kingdom", "GB", "Scotland", "Europe/London", 55.9533, -3.1883, "EH1", "+44 131",
       "Royal Mile|Princes Street|Grassmarket"},
      {"Berlin", "Germany", "DE", "Berlin", "Europe/Berlin", 52.5200, 13.4050, "10115", "+49 30",
       "Torstraße|Kastanienallee|Oranienstraße"},
      {"München", "Germany", "DE", "Bayern", "Europe/Berlin", 48.1351, 11.5820, "80331", "+49 89",
       "Leopoldstraße|Sendlinger Straße|Maximilianstraße"},
      {"Hamburg", "Germany", "DE", "Hamburg", "Europe/Berlin", 53.5511, 9.9937, "20095", "+49 40",
       "Reeperbahn|Mönckebergstraße|Schanzenstraße"},
      {"Paris", "France", "FR", "Île-de-France", "Europe/Paris", 48.8566, 2.3522, "75001", "+33 1",
       "rue de Rivoli|boulevard Saint-Germain|rue Oberkampf"},
      {"Lyon", "France", "FR", "Auvergne-Rhône-Alpes", "Europe/Paris", 45.7640, 4.8357, "69001", "+33 4",
       "rue de la République|quai Saint-Antoine|rue Mercière"},
      {"Marseille", "France", "FR", "Provence-Alpes-Côte d'Azur", "Europe/Paris", 43.2965, 5.3698, "13001",
       "+33 4", "La Canebière|rue de la République|cours Julien"},
      {"Madrid", "Spain", "ES", "Comunidad de Madrid", "Europe/Madrid", 40.4168, -3.7038, "28001", "+34 91",
       "Calle Mayor|Gran Vía|Calle de Alcalá"},
      {"Barcelona", "Spain", "ES", "Cataluña", "Europe/Madrid", 41.3874, 2.1686, "08001", "+34 93",
       "La Rambla|Carrer de Mallorca|Passeig de Gràcia"},
      {"Sevilla", "Spain", "ES", "Andalucía", "Europe/Madrid", 37.3891, -5.9845, "41001", "+34 95",
       "Calle Sierpes|Avenida de la Constitución|Calle Betis"},
      {"Tokyo", "Japan", "JP", "Tokyo", "Asia/Tokyo", 35.6762, 139.6503, "100", "+81 3",
       "Ginza|Shibuya|Asakusa"},
      {"Osaka", "Japan", "JP", "Osaka", "Asia/Tokyo", 34.6937, 135.5023, "530", "+81 6",
       "Umeda|Namba|Tennoji"},
      {"Kyoto", "Japan", "JP", "Kyoto", "Asia/Tokyo", 35.0116, 135.7681, "600", "+81 75",
       "Gion|Kawaramachi|Arashiyama"},
      {"Sydney", "Australia", "AU", "New South Wales", "Australia/Sydney", -33.8688, 151.2093, "2000",
       "+61 2", "George Street|Oxford Street|King Street"},
      {"Melbourne", "Australia", "AU", "Victoria", "Australia/Melbourne", -37.8136, 144.9631, "3000", "+61 3",
       "Flinders Street|Swanston Street|Brunswick Street"},
      {"Brisbane", "Australia", "AU", "Queensland", "Australia/Brisbane", -27.4698, 153.0251, "4000", "+61 7",
       "Queen Street|Adelaide Street|Boundary Street"},
      {"Perth", "Australia", "AU", "Western Australia", "Australia/Perth", -31.9505, 115.8605, "6000",
       "+61 8", "Hay Street|Murray Street|William Street"},
  };
  return cities;
}

}  // namespace cal
