// libFuzzer target: sanitize_html(). The output must be valid UTF-8 and hold only allow-listed
// elements and attributes (so no <script>, no on* handler, no style) and no javascript:,
// vbscript:, data: or file: URL; sanitizing the output again must keep it so.
#include "fuzz_support.h"
#include "cal/core/text/html_sanitizer.h"
#include "cal/core/text/slug.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

using caltest_fuzz::require;

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool listed(std::string_view name, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// What a browser reads from a double-quoted attribute value the sanitizer wrote (it escapes
// only &, ", < and >), with ASCII white space and control characters removed, lower-cased.
std::string attribute_as_read(std::string_view raw) {
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    std::string_view rest = raw.substr(i);
    char c = raw[i];
    for (auto [entity, ch] : {std::pair{"&amp;", '&'}, {"&quot;", '"'}, {"&lt;", '<'}, {"&gt;", '>'}}) {
      if (rest.substr(0, std::string_view(entity).size()) == entity) {
        c = ch;
        i += std::string_view(entity).size() - 1;
        break;
      }
    }
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// Walks the output's tags (the sanitizer writes `<name attr="value">`, `</name>`) and checks
// every element and attribute name against the allow-list and every URL against the schemes.
void check_safe(const std::string& html) {
  require(cal::is_valid_utf8(html), "output is not valid UTF-8");
  const std::string l = lower(html);
  std::size_t pos = 0;
  while ((pos = l.find('<', pos)) != std::string::npos) {
    ++pos;
    if (pos < l.size() && l[pos] == '/') ++pos;
    const std::size_t name_end = l.find_first_of(" >", pos);
    require(name_end != std::string::npos, "unterminated tag in output");
    const std::string name = l.substr(pos, name_end - pos);
    require(listed(name, {"a",     "abbr",  "b",          "blockquote", "br",     "cite",   "code", "del",
                          "div",   "em",    "figcaption", "figure",     "h1",     "h2",     "h3",   "h4",
                          "h5",    "h6",    "hr",         "i",          "img",    "li",     "ol",   "p",
                          "pre",   "q",     "s",          "span",       "strike", "strong", "sub",  "sup",
                          "table", "tbody", "td",         "th",         "thead",  "tr",     "u",    "ul"}),
            "element outside the allow-list in output");
    pos = name_end;
    while (pos < l.size() && l[pos] == ' ') {
      const std::size_t eq = l.find("=\"", pos);
      require(eq != std::string::npos, "attribute without a quoted value");
      const std::string attr = l.substr(pos + 1, eq - pos - 1);
      require(listed(attr, {"href", "title", "target", "rel", "src", "alt", "width", "height", "colspan",
                            "rowspan", "class"}),
              "attribute outside the allow-list in output");
      const std::size_t close = l.find('"', eq + 2);
      require(close != std::string::npos, "unterminated attribute value");
      if (attr == "href" || attr == "src") {
        const std::string url = attribute_as_read(std::string_view(l).substr(eq + 2, close - eq - 2));
        for (const char* bad : {"javascript:", "vbscript:", "data:", "file:"})
          require(url.rfind(bad, 0) != 0, "dangerous URL scheme in output");
      }
      pos = close + 1;
    }
    require(pos < l.size() && l[pos] == '>', "malformed tag in output");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view html(reinterpret_cast<const char*>(data), size);
  const std::string once = cal::sanitize_html(html);
  check_safe(once);
  check_safe(cal::sanitize_html(once));
  return 0;
}
