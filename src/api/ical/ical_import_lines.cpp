// Unfolding and the content-line checks of an imported calendar (see ical_import_lines.h).
#include "api/ical/ical_import_lines.h"

#include "cal/core/text/ascii.h"
#include "cal/core/text/slug.h"

#include <algorithm>

namespace cal {
namespace {

bool is_name_char(char c) { return ascii::is_alnum(c) || c == '-'; }

// Control characters other than HTAB are not allowed anywhere in a content line (RFC 5545 §3.1);
// a NUL would also cut the text libical gets.
bool has_control(std::string_view s) {
  for (const char c : s)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) return true;
  return false;
}

// name *(";" param) ":" value, where param is name "=" value *("," value) and a value is a
// quoted string or has no DQUOTE ; : ,. Fills name (upper-case) and value; false when malformed.
bool split_content_line(IcalLine& l) {
  const std::string_view s = l.text;
  std::size_t i = 0;
  while (i < s.size() && is_name_char(s[i])) ++i;
  if (i == 0) return false;
  l.name = ascii::upper(std::string(s.substr(0, i)));
  while (i < s.size() && s[i] == ';') {
    const std::size_t start = ++i;
    while (i < s.size() && is_name_char(s[i])) ++i;
    if (i == start || i >= s.size() || s[i] != '=') return false;
    do {
      ++i;  // past '=' or ','
      if (i < s.size() && s[i] == '"') {
        const std::size_t close = s.find('"', i + 1);
        if (close == std::string_view::npos) return false;
        i = close + 1;
      } else {
        while (i < s.size() && s[i] != '"' && s[i] != ';' && s[i] != ':' && s[i] != ',') ++i;
        if (i < s.size() && s[i] == '"') return false;
      }
    } while (i < s.size() && s[i] == ',');
  }
  if (i >= s.size() || s[i] != ':') return false;
  l.value = std::string(s.substr(i + 1));
  return true;
}

IcalProblem problem_at(int line, std::string msgid, std::vector<std::string> args) {
  IcalProblem p;
  p.msgid = std::move(msgid);
  p.args = std::move(args);
  p.line = line;
  return p;
}

void fail(IcalScan& scan, IcalFailure failure, IcalProblem problem) {
  scan.failure = failure;
  scan.problem = std::move(problem);
}

}  // namespace

std::string shown_line(std::string_view text) {
  constexpr std::size_t kMax = 60;
  if (text.size() <= kMax) return std::string(text);
  std::size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

IcalProblem malformed_line(const IcalLine& line) {
  return problem_at(line.line, "Line %s of the calendar is malformed: %s",
                    {std::to_string(line.line), shown_line(line.text)});
}

IcalScan scan_ical_lines(std::string_view body, std::size_t max_events) {
  IcalScan scan;
  if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);  // a UTF-8 byte order mark
  // Physical lines: LF or CRLF ends; a line starting with a space or tab continues the last one.
  int number = 0;
  std::size_t pos = 0;
  while (pos < body.size()) {
    std::size_t end = body.find('\n', pos);
    if (end == std::string_view::npos) end = body.size();
    std::string_view physical = body.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (physical.ends_with('\r')) physical.remove_suffix(1);
    if (!is_valid_utf8(physical)) {
      fail(scan, IcalFailure::kMalformed,
           problem_at(number, "Line %s of the calendar is not valid UTF-8.", {std::to_string(number)}));
      return scan;
    }
    if (physical.empty()) continue;  // blank lines (often at the end) carry nothing
    if (physical[0] == ' ' || physical[0] == '\t') {
      if (scan.lines.empty()) {
        fail(scan, IcalFailure::kMalformed, malformed_line(IcalLine{number, std::string(physical), "", ""}));
        return scan;
      }
      scan.lines.back().text.append(physical.substr(1));
      continue;
    }
    scan.lines.push_back(IcalLine{number, std::string(physical), "", ""});
  }
  // Syntax and nesting: exactly one VCALENDAR, every BEGIN closed by its END.
  std::vector<std::string> open;
  bool closed = false;  // END:VCALENDAR seen
  for (IcalLine& l : scan.lines) {
    if (closed || has_control(l.text) || !split_content_line(l)) {
      fail(scan, IcalFailure::kMalformed, malformed_line(l));
      return scan;
    }
    if (l.name == "BEGIN") {
      const std::string component = ascii::upper(l.value);
      const bool valid = !component.empty() && std::all_of(component.begin(), component.end(), is_name_char);
      if (!valid || (open.empty() != (component == "VCALENDAR"))) {
        fail(scan, IcalFailure::kMalformed, malformed_line(l));
        return scan;
      }
      if (component == "VEVENT" && open.size() == 1) {
        if (scan.vevent_lines.size() == max_events) {
          fail(scan, IcalFailure::kTooManyEvents,
               problem_at(l.line, "The calendar has more than %s VEVENTs; import them in several requests.",
                          {std::to_string(max_events)}));
          return scan;
        }
        scan.vevent_lines.push_back(l.line);
      }
      open.push_back(component);
    } else if (l.name == "END") {
      if (open.empty() || ascii::upper(l.value) != open.back()) {
        fail(scan, IcalFailure::kMalformed, malformed_line(l));
        return scan;
      }
      open.pop_back();
      closed = open.empty();
    } else if (open.empty()) {
      fail(scan, IcalFailure::kMalformed, malformed_line(l));
      return scan;
    }
  }
  if (scan.lines.empty()) {
    fail(scan, IcalFailure::kMalformed, problem_at(1, "Line %s of the calendar is malformed: %s", {"1", ""}));
  } else if (!closed) {
    fail(scan, IcalFailure::kMalformed,
         problem_at(scan.lines.back().line, "The calendar ends at line %s without END:%s.",
                    {std::to_string(scan.lines.back().line), open.back()}));
  } else if (scan.vevent_lines.empty()) {
    fail(scan, IcalFailure::kNoEvents, problem_at(0, "The calendar has no VEVENT to import.", {}));
  }
  return scan;
}

}  // namespace cal
