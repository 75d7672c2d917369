// The import report as text and JSON (see wordpress_report.h).
#include "wordpress_report.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>

namespace cal {

const char* const kImportKinds[8] = {"user",  "category",  "tag",   "image",
                                     "venue", "organizer", "event", "site"};

void write_text_report(std::ostream& out, const ImportReport& r) {
  out << (r.dry_run ? "import-wordpress (dry run: nothing written)" : "import-wordpress") << " from "
      << r.source << " (prefix " << r.prefix;
  if (r.site > 1) out << ", site " << r.site;
  out << ")\n";
  if (!r.site_name.empty() || !r.site_timezone.empty())
    out << "site: \"" << r.site_name << "\", time zone " << r.site_timezone << "\n";
  out << "kind         imported  updated  unchanged  skipped\n";
  for (const char* kind : kImportKinds) {
    const auto it = r.counts.find(kind);
    if (it == r.counts.end()) continue;
    char line[128];
    std::snprintf(line, sizeof line, "%-10s %10lld %8lld %10lld %8lld\n", kind, it->second.imported,
                  it->second.updated, it->second.unchanged, it->second.skipped);
    out << line;
  }
  for (const auto& [reason, n] : r.not_ours) out << "not imported: " << n << " " << reason << "\n";
  for (const auto& c : r.changes) {
    out << c.kind;
    if (c.source_id) out << " " << c.source_id;
    if (c.target_id && c.target_id != c.source_id) out << " (here " << c.target_id << ")";
    if (!c.field.empty()) out << " " << c.field;
    out << ": " << c.reason << "\n";
  }
  for (const auto& [login, password] : r.new_passwords)
    out << "new application password for " << login << ": " << password << "\n";
  char took[64];
  std::snprintf(took, sizeof took, "%.1f", r.seconds);
  out << "took " << took << " s\n";
}

std::string json_report(const ImportReport& r) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("source");
  w.String(r.source.c_str());
  w.Key("prefix");
  w.String(r.prefix.c_str());
  w.Key("site");
  w.Int64(r.site);
  w.Key("dry_run");
  w.Bool(r.dry_run);
  w.Key("site_name");
  w.String(r.site_name.c_str());
  w.Key("site_timezone");
  w.String(r.site_timezone.c_str());
  w.Key("counts");
  w.StartObject();
  for (const char* kind : kImportKinds) {
    const auto it = r.counts.find(kind);
    if (it == r.counts.end()) continue;
    w.Key(kind);
    w.StartObject();
    w.Key("imported");
    w.Int64(it->second.imported);
    w.Key("updated");
    w.Int64(it->second.updated);
    w.Key("unchanged");
    w.Int64(it->second.unchanged);
    w.Key("skipped");
    w.Int64(it->second.skipped);
    w.EndObject();
  }
  w.EndObject();
  w.Key("not_imported");
  w.StartObject();
  for (const auto& [reason, n] : r.not_ours) {
    w.Key(reason.c_str());
    w.Int64(n);
  }
  w.EndObject();
  w.Key("changes");
  w.StartArray();
  for (const auto& c : r.changes) {
    w.StartObject();
    w.Key("kind");
    w.String(c.kind.c_str());
    w.Key("source_id");
    w.Int64(c.source_id);
    w.Key("id");
    w.Int64(c.target_id);
    w.Key("field");
    w.String(c.field.c_str());
    w.Key("reason");
    w.String(c.reason.c_str());
    w.EndObject();
  }
  w.EndArray();
  w.Key("new_users");
  w.StartArray();
  for (const auto& entry : r.new_passwords) w.String(entry.first.c_str());
  w.EndArray();
  w.Key("seconds");
  w.Double(r.seconds);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace cal
