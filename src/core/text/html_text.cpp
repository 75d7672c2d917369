// HTML to plain text (see cal/core/text/html_text.h).
#include "cal/core/text/html_text.h"

#include "cal/core/text/html_sanitizer.h"

#include <gumbo.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

namespace cal {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// Elements after which the text continues on a new line, and those that stand apart by an empty line.
bool is_line_block(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_DIV:
    case GUMBO_TAG_LI:
    case GUMBO_TAG_TR:
    case GUMBO_TAG_DT:
    case GUMBO_TAG_DD:
    case GUMBO_TAG_FIGURE:
    case GUMBO_TAG_FIGCAPTION:
    case GUMBO_TAG_ADDRESS:
    case GUMBO_TAG_SECTION:
    case GUMBO_TAG_ARTICLE:
    case GUMBO_TAG_HEADER:
    case GUMBO_TAG_FOOTER:
    case GUMBO_TAG_HR:
      return true;
    default:
      return false;
  }
}

bool is_paragraph_block(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_P:
    case GUMBO_TAG_H1:
    case GUMBO_TAG_H2:
    case GUMBO_TAG_H3:
    case GUMBO_TAG_H4:
    case GUMBO_TAG_H5:
    case GUMBO_TAG_H6:
    case GUMBO_TAG_UL:
    case GUMBO_TAG_OL:
    case GUMBO_TAG_DL:
    case GUMBO_TAG_TABLE:
    case GUMBO_TAG_BLOCKQUOTE:
    case GUMBO_TAG_PRE:
      return true;
    default:
      return false;
  }
}

bool is_silent(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_OBJECT:
    case GUMBO_TAG_HEAD:
    case GUMBO_TAG_TITLE:
      return true;
    default:
      return false;
  }
}

// Text written so far, with pending white space and line breaks resolved lazily: a space or
// break is only written before the next visible character, so none trail a block.
class TextWriter {
 public:
  explicit TextWriter(std::string& out) : out_(out) {}

  void text(std::string_view s, bool preformatted) {
    for (char c : s) {
      if (preformatted) {
        if (c == '\r') continue;
        if (c == '\n') {
          flush();
          out_ += '\n';
          continue;
        }
        flush();
        out_ += c;
      } else if (is_blank(c)) {
        space_ = true;
      } else {
        flush();
        out_ += c;
      }
    }
  }
  // At least `n` line breaks before the next text (1: new line, 2: an empty line between).
  void breaks(int n) {
    if (n > breaks_) breaks_ = n;
    space_ = false;
  }
  // A line break as <br> makes it: always written, even several in a row.
  void hard_break() {
    flush_space_only();
    out_ += '\n';
    breaks_ = 0;
    space_ = false;
  }

 private:
  void flush_space_only() {
    if (breaks_ > 0 && !out_.empty()) {
      int have = 0;
      for (auto it = out_.rbegin(); it != out_.rend() && *it == '\n'; ++it) ++have;
      for (int i = have; i < breaks_; ++i) out_ += '\n';
    }
    breaks_ = 0;
    space_ = false;
  }
  void flush() {
    if (breaks_ > 0) {
      flush_space_only();
    } else if (space_ && !out_.empty() && out_.back() != '\n') {
      out_ += ' ';
    }
    space_ = false;
  }

  std::string& out_;
  int breaks_ = 0;
  bool space_ = false;
};

const char* attribute(const GumboElement& e, const char* name) {
  const GumboAttribute* a = gumbo_get_attribute(&e.attributes, name);
  return a ? a->value : nullptr;
}

void walk(const GumboNode& node, TextWriter& w, bool pre);

void walk_children(const GumboVector& children, TextWriter& w, bool pre) {
  for (unsigned i = 0; i < children.length; ++i)
    walk(*static_cast<const GumboNode*>(children.data[i]), w, pre);
}

// The text of a subtree as is (for comparing a link's text with its address).
void collect(const GumboNode& node, std::string& out) {
  if (node.type == GUMBO_NODE_TEXT || node.type == GUMBO_NODE_WHITESPACE || node.type == GUMBO_NODE_CDATA) {
    out += node.v.text.text;
  } else if (node.type == GUMBO_NODE_ELEMENT) {
    for (unsigned i = 0; i < node.v.element.children.length; ++i)
      collect(*static_cast<const GumboNode*>(node.v.element.children.data[i]), out);
  }
}

void walk(const GumboNode& node, TextWriter& w, bool pre) {
  switch (node.type) {
    case GUMBO_NODE_TEXT:
    case GUMBO_NODE_WHITESPACE:
    case GUMBO_NODE_CDATA:
      w.text(node.v.text.text, pre);
      return;
    case GUMBO_NODE_ELEMENT:
    case GUMBO_NODE_TEMPLATE:
      break;
    default:
      return;
  }
  const GumboElement& e = node.v.element;
  if (is_silent(e.tag)) return;
  if (e.tag == GUMBO_TAG_BR) {
    w.hard_break();
    return;
  }
  if (e.tag == GUMBO_TAG_IMG) {
    if (const char* alt = attribute(e, "alt")) w.text(alt, false);
    return;
  }
  const int around = is_paragraph_block(e.tag) ? 2 : is_line_block(e.tag) ? 1 : 0;
  if (around) w.breaks(around);
  if (e.tag == GUMBO_TAG_LI) w.text("- ", true);
  if (e.tag == GUMBO_TAG_TD || e.tag == GUMBO_TAG_TH) w.text(" ", false);
  walk_children(e.children, w, pre || e.tag == GUMBO_TAG_PRE);
  if (e.tag == GUMBO_TAG_A) {
    const char* href = attribute(e, "href");
    std::string shown;
    collect(node, shown);
    if (href && *href && shown.find(href) == std::string::npos) {
      w.text(" <", false);
      w.text(href, true);
      w.text(">", true);
    }
  }
  if (around) w.breaks(around);
}

// Whether `s` is well-formed UTF-8 without NUL and CR (which the parser would replace or
// normalize): the fast path below leaves such text to the parser.
bool plain_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == 0 || c == '\r') return false;
    if (c < 0x80) {
      ++i;
      continue;
    }
    const int n = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (n < 0 || c == 0xC0 || c == 0xC1 || c > 0xF4 || i + static_cast<std::size_t>(n) >= s.size())
      return false;
    for (int k = 1; k <= n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
    // Overlong forms, surrogates and code points past U+10FFFF.
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) ||
        (c == 0xF4 && c1 >= 0x90))
      return false;
    i += static_cast<std::size_t>(n) + 1;
  }
  return true;
}

// The descriptions most events have (what the sanitizer and editors write): text, the five
// common character references, and <p>, <br>, <b>, <strong>, <i>, <em> without attributes.
// Converted in one pass, as the parser would (the unit tests compare both); nullopt for
// anything else, which then goes to the parser. A feed converts up to 1,000 descriptions.
std::optional<std::string> simple_html_to_text(std::string_view html) {
  if (!plain_utf8(html)) return std::nullopt;
  std::string out;
  out.reserve(html.size());
  TextWriter w(out);
  std::string run;
  std::size_t i = 0;
  while (i < html.size()) {
    const char c = html[i];
    if (c == '<') {
      const std::size_t close = html.find('>', i);
      if (close == std::string_view::npos) return std::nullopt;
      std::string_view tag = html.substr(i + 1, close - i - 1);
      const bool end = !tag.empty() && tag.front() == '/';
      if (end) tag.remove_prefix(1);
      if (tag == "br" || tag == "br/" || tag == "br /") {
        if (end) return std::nullopt;  // </br> is a <br> to the parser, but rare: leave it to it
        w.text(run, false);
        run.clear();
        w.hard_break();
      } else if (tag == "p") {
        w.text(run, false);
        run.clear();
        w.breaks(2);
      } else if (tag != "b" && tag != "strong" && tag != "i" && tag != "em") {
        return std::nullopt;
      }
      i = close + 1;
      continue;
    }
    if (c == '&') {
      static constexpr std::pair<std::string_view, char> kRefs[] = {
          {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
      bool found = false;
      for (const auto& [ref, ch] : kRefs)
        if (html.substr(i, ref.size()) == ref) {
          run += ch;
          i += ref.size();
          found = true;
          break;
        }
      if (!found) return std::nullopt;
      continue;
    }
    if (c == '>') return std::nullopt;
    run += c;
    ++i;
  }
  w.text(run, false);
  return out;
}

// Trailing blanks of each line, and leading/trailing line breaks of the whole.
std::string trim_lines(const std::string& out) {
  std::string trimmed;
  trimmed.reserve(out.size());
  for (char c : out) {
    if (c == '\n')
      while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t')) trimmed.pop_back();
    trimmed += c;
  }
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == ' ')) trimmed.pop_back();
  const std::size_t first = trimmed.find_first_not_of('\n');
  return first == std::string::npos ? std::string() : trimmed.substr(first);
}

}  // namespace

std::string html_to_text_parsed(std::string_view html) {
  std::string out;
  std::size_t length = std::min(html.size(), kMaxSanitizedHtmlBytes);
  while (length > 0 && length < html.size() && (static_cast<unsigned char>(html[length]) & 0xC0) == 0x80)
    --length;
  GumboOptions options = kGumboDefaultOptions;
  options.fragment_context = GUMBO_TAG_DIV;
  options.fragment_namespace = GUMBO_NAMESPACE_HTML;
  options.max_errors = 0;
  const auto destroy = [&options](GumboOutput* output) { gumbo_destroy_output(&options, output); };
  const std::unique_ptr<GumboOutput, decltype(destroy)> output(
      gumbo_parse_with_options(&options, html.data(), length), destroy);
  if (!output) return out;
  TextWriter w(out);
  walk(*output->root, w, false);
  return trim_lines(out);
}

std::string html_to_text(std::string_view html) {
  std::string out;
  if (html.find_first_of("<&") == std::string_view::npos) {
    out.reserve(html.size());
    for (std::size_t i = 0; i < html.size(); ++i) {
      if (html[i] != '\r') {
        out += html[i];
      } else {
        out += '\n';
        if (i + 1 < html.size() && html[i + 1] == '\n') ++i;
      }
    }
    return out;
  }
  if (html.size() <= kMaxSanitizedHtmlBytes)
    if (auto simple = simple_html_to_text(html)) return trim_lines(*simple);
  return html_to_text_parsed(html);
}

}  // namespace cal
