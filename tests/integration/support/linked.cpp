// Helpers of the venue and organizer integration tests (see support/linked.h).
#include "support/linked.h"

#include "support/commands.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace caltest {

const LinkedResource kVenueResource{"/cal/events/v1/venues", "venue", "venue", "venues", "venue"};
const LinkedResource kOrganizerResource{"/cal/events/v1/organizers", "organizer", "organizer", "organizers",
                                        "organizer"};
const LinkedResource kLinkedResources[2] = {kVenueResource, kOrganizerResource};

const RoleUser& role_user(std::string_view role) {
  static std::mutex mutex;
  static std::map<std::string, RoleUser> users;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = users.find(std::string(role));
  if (it != users.end()) return it->second;
  RoleUser user;
  if (role == "administrator") {
    user.token = admin_token();
    user.id = user_id("admin");
  } else {
    std::string login;
    user.token = create_user("linked", role, &login);
    user.id = user_id(login);
  }
  return users.emplace(std::string(role), user).first->second;
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        out += c;
    }
  }
  return out + "\"";
}

std::string body_with(const LinkedResource& res, const std::string& name, const std::string& more) {
  return "{" + json_string(res.name_key) + ":" + json_string(name) + (more.empty() ? "" : "," + more) + "}";
}

const char* detail_field(const LinkedResource& res) {
  return std::string(res.kind) == "venue" ? "city" : "phone";
}

rapidjson::Document create_record(const LinkedResource& res, const std::string& name, const std::string& more,
                                  const std::string& auth) {
  const std::string body = body_with(res, name, more);
  const HttpResponse r = post_json(res.collection, body, {auth});
  CHECK_MESSAGE(r.status == 201, body, " -> ", describe(r));
  if (r.status != 201) {
    rapidjson::Document empty;
    empty.SetObject();
    return empty;
  }
  return r.json();
}

long long create_record_id(const LinkedResource& res, const std::string& name, const std::string& more) {
  return id_of(create_record(res, name, more, bearer(admin_token())));
}

long long id_of(const rapidjson::Value& record) {
  const rapidjson::Value* id = find(record, {"id"});
  return id && id->IsInt64() ? id->GetInt64() : 0;
}

std::string item_path(const LinkedResource& res, long long id) {
  return std::string(res.collection) + "/" + std::to_string(id);
}

std::string slug_path(const LinkedResource& res, const std::string& slug) {
  return std::string(res.collection) + "/by-slug/" + slug;
}

std::vector<long long> list_ids(const LinkedResource& res, const std::string& path,
                                const std::vector<std::string>& headers) {
  const HttpResponse r = get(path, headers);
  CHECK_MESSAGE(r.status == 200, path, " -> ", describe(r));
  std::vector<long long> ids;
  if (r.status != 200) return ids;
  const rapidjson::Document doc = r.json();
  const rapidjson::Value* items = find(doc, {res.list_key});
  if (items && items->IsArray())
    for (const auto& item : items->GetArray()) ids.push_back(id_of(item));
  return ids;
}

long long create_event(const std::string& start, const std::string& end, const std::string& more,
                       const std::string& auth) {
  const std::string body = "{\"title\":" + json_string(unique("linked_event")) +
                           ",\"start_date\":" + json_string(start) + ",\"end_date\":" + json_string(end) +
                           (more.empty() ? "" : "," + more) + "}";
  const HttpResponse r = post_json(kEventsPath, body, {auth.empty() ? bearer(admin_token()) : auth});
  CHECK_MESSAGE(r.status == 201, body, " -> ", describe(r));
  return r.status == 201 ? id_of(r.json()) : 0;
}

}  // namespace caltest
