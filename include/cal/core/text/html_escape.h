// Text escaped for HTML, the one escaper of the service: the sanitizer writes every text node and
// attribute value with it, the iCalendar import a plain-text DESCRIPTION.
#pragma once

#include <string>
#include <string_view>

namespace cal {

// Appends `text` escaped for HTML: &, <, > always, " too inside attribute values. Ill-formed UTF-8
// (which libgumbo can produce for absurd numeric character references) becomes U+FFFD.
void append_html_escaped(std::string& out, std::string_view text, bool in_attribute = false);

}  // namespace cal
