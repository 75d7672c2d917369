// Internal to the dates module (src/core/dates/dates.cpp, date_parser.cpp, time_zone.cpp); other
// code uses cal/core/dates/dates.h. Text scanning: the Scanner cursor over lower-cased text (its
// character classes are those of cal/core/text/ascii.h), and the scanners of dates, clock times
// and UTC offsets that the date forms are built from.
#pragma once

#include "core/dates/civil_time.h"
#include "cal/core/text/ascii.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace cal::detail {

// The value of a run of decimal digits (not checked; callers pass digits only).
inline int to_int(std::string_view digits) {
  int value = 0;
  for (char c : digits) value = value * 10 + (c - '0');
  return value;
}

using ascii::is_digit;
using ascii::is_space;

// A cursor over lower-cased text. Copy it to try a form and assign it back to commit.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool at_end() const { return pos_ == text_.size(); }
  // True at the end of the text or before a space: where an item may end.
  bool at_boundary() const { return at_end() || is_space(text_[pos_]); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }

  bool eat(char c) {
    if (at_end() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  // Skips spaces; true if there were any.
  bool skip_spaces() {
    const std::size_t start = pos_;
    while (!at_end() && is_space(text_[pos_])) ++pos_;
    return pos_ != start;
  }

  // The run of digits here (possibly empty), consumed.
  std::string_view digits() { return take_while(is_digit); }

  // The run of letters here (possibly empty), consumed.
  std::string_view word() { return take_while(ascii::is_lower); }

  // A number of min_length..max_length digits (not followed by more digits), consumed.
  std::optional<std::int64_t> number(std::size_t min_length, std::size_t max_length) {
    Scanner probe = *this;
    const std::string_view run = probe.digits();
    if (run.size() < min_length || run.size() > max_length) return std::nullopt;
    *this = probe;
    std::int64_t value = 0;
    for (char c : run) value = value * 10 + (c - '0');
    return value;
  }

 private:
  std::string_view take_while(bool (*accept)(char)) {
    const std::size_t start = pos_;
    while (!at_end() && accept(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

// "YYYY-MM-DD" naming a real date.
std::optional<CivilDate> scan_date(Scanner& s);

// "HH:MM:SS" on a 24-hour clock, or also "HH:MM" unless seconds_required.
std::optional<Clock> scan_clock24(Scanner& s, bool seconds_required);

// A time of day: "16:00", "16:00:30", "9am", "9 am", "4:30pm", "4:30:15 pm".
std::optional<Clock> scan_time_of_day(Scanner& s);

// "Z", "+HH:MM", "+HHMM", "+HH" (or '-'): seconds east of UTC.
std::optional<int> scan_utc_offset(Scanner& s);

}  // namespace cal::detail
