// Allow-list HTML sanitizer on top of libgumbo (see cal/core/text/html_sanitizer.h).
#include "cal/core/text/html_sanitizer.h"

#include "cal/core/text/ascii.h"
#include "cal/core/text/html_escape.h"

#include <gumbo.h>

#include <algorithm>
#include <csetjmp>
#include <cstdlib>
#include <memory>
#include <vector>

namespace cal {
namespace {

// Elements re-serialized with their (filtered) attributes.
constexpr std::string_view kAllowedElements[] = {
    "a",          "abbr",   "b",     "blockquote", "br",  "cite", "code",  "del",  "div",    "em",
    "figcaption", "figure", "h1",    "h2",         "h3",  "h4",   "h5",    "h6",   "hr",     "i",
    "img",        "li",     "ol",    "p",          "pre", "q",    "s",     "span", "strike", "strong",
    "sub",        "sup",    "table", "tbody",      "td",  "th",   "thead", "tr",   "u",      "ul",
};

// Elements removed together with everything inside them.
constexpr std::string_view kDroppedWithContent[] = {
    "script", "style", "iframe", "object",  "embed",    "noscript", "template",
    "svg",    "math",  "applet", "noembed", "noframes", "frame",    "frameset",
};

constexpr std::string_view kVoidElements[] = {"br", "hr", "img"};

// How an allowed attribute's value is checked.
enum class AttributeKind { kText, kLink, kImageSource, kDimension, kCount };

// One allowed attribute; an empty element name means "on every allowed element".
struct AllowedAttribute {
  std::string_view element;
  std::string_view name;
  AttributeKind kind;
};

constexpr AllowedAttribute kAllowedAttributes[] = {
    {"", "class", AttributeKind::kText},          {"a", "href", AttributeKind::kLink},
    {"a", "title", AttributeKind::kText},         {"a", "target", AttributeKind::kText},
    {"a", "rel", AttributeKind::kText},           {"abbr", "title", AttributeKind::kText},
    {"img", "src", AttributeKind::kImageSource},  {"img", "alt", AttributeKind::kText},
    {"img", "title", AttributeKind::kText},       {"img", "width", AttributeKind::kDimension},
    {"img", "height", AttributeKind::kDimension}, {"td", "colspan", AttributeKind::kCount},
    {"td", "rowspan", AttributeKind::kCount},     {"th", "colspan", AttributeKind::kCount},
    {"th", "rowspan", AttributeKind::kCount},
};

constexpr std::string_view kLinkSchemes[] = {"http", "https", "mailto"};
constexpr std::string_view kImageSchemes[] = {"http", "https"};
constexpr std::size_t kMaxNumberDigits = 5;

template <std::size_t N>
bool contains(const std::string_view (&list)[N], std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

using ascii::is_digit;

// True when a URL is relative or uses one of `schemes`. ASCII whitespace and control characters
// are removed first, as browsers ignore some of them inside "java\tscript:".
template <std::size_t N>
bool has_allowed_scheme(std::string_view url, const std::string_view (&schemes)[N]) {
  std::string compact;
  for (const char c : url) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte > 0x20 && byte != 0x7F) compact += ascii::to_lower(c);
  }
  const std::size_t end = compact.find_first_of(":/?#");
  if (end == std::string::npos || compact[end] != ':') return true;  // no scheme: relative
  return contains(schemes, std::string_view(compact).substr(0, end));
}

// 1-5 digits, optionally followed by '%' when percent is allowed.
bool is_small_number(std::string_view value, bool percent_allowed) {
  if (percent_allowed && !value.empty() && value.back() == '%') value.remove_suffix(1);
  return !value.empty() && value.size() <= kMaxNumberDigits &&
         std::all_of(value.begin(), value.end(), is_digit);
}

bool is_allowed_value(AttributeKind kind, std::string_view value) {
  switch (kind) {
    case AttributeKind::kText:
      return true;
    case AttributeKind::kLink:
      return has_allowed_scheme(value, kLinkSchemes);
    case AttributeKind::kImageSource:
      return has_allowed_scheme(value, kImageSchemes);
    case AttributeKind::kDimension:
      return is_small_number(value, true);
    case AttributeKind::kCount:
      return is_small_number(value, false);
  }
  return false;
}

// The canonical attribute name to write, or nullptr when the attribute must be dropped.
const std::string_view* allowed_attribute(std::string_view element, const GumboAttribute& attribute) {
  const std::string_view name = attribute.name;
  for (const auto& allowed : kAllowedAttributes) {
    if ((allowed.element.empty() || allowed.element == element) && allowed.name == name) {
      return is_allowed_value(allowed.kind, attribute.value) ? &allowed.name : nullptr;
    }
  }
  return nullptr;
}

bool is_text_node(const GumboNode& node) {
  return node.type == GUMBO_NODE_TEXT || node.type == GUMBO_NODE_WHITESPACE || node.type == GUMBO_NODE_CDATA;
}

// The parser drops one newline right after <pre>; write an extra one when the content starts
// with a newline so that re-parsing the output keeps it.
bool needs_leading_newline(std::string_view element, const GumboElement& node) {
  if (element != "pre" || node.children.length == 0) return false;
  const auto* first = static_cast<const GumboNode*>(node.children.data[0]);
  return is_text_node(*first) && first->v.text.text[0] == '\n';
}

void write_start_tag(std::string& out, std::string_view element, const GumboElement& node) {
  out += '<';
  out += element;
  for (unsigned i = 0; i < node.attributes.length; ++i) {
    const auto& attribute = *static_cast<const GumboAttribute*>(node.attributes.data[i]);
    if (const std::string_view* name = allowed_attribute(element, attribute)) {
      out += ' ';
      out += *name;
      out += "=\"";
      append_html_escaped(out, attribute.value, true);
      out += '"';
    }
  }
  out += '>';
  if (needs_leading_newline(element, node)) out += '\n';
}

// Walks the parse tree depth-first without recursion (nesting depth is attacker-controlled).
class Serializer {
 public:
  explicit Serializer(std::string& out) : out_(out) {}

  void write_children_of(const GumboNode& node) {
    push_children(node.v.element.children);
    while (!pending_.empty()) {
      const Pending item = pending_.back();
      pending_.pop_back();
      if (item.node == nullptr) {
        out_ += "</";
        out_ += item.end_tag;
        out_ += '>';
      } else {
        write_node(*item.node);
      }
    }
  }

 private:
  // A node still to write, or (node == nullptr) an end tag still to write.
  struct Pending {
    const GumboNode* node;
    std::string_view end_tag;
  };

  void push_children(const GumboVector& children) {
    for (unsigned i = children.length; i > 0; --i) {
      pending_.push_back({static_cast<const GumboNode*>(children.data[i - 1]), {}});
    }
  }

  void write_node(const GumboNode& node) {
    if (is_text_node(node)) {
      append_html_escaped(out_, node.v.text.text);
    } else if (node.type == GUMBO_NODE_ELEMENT) {
      write_element(node);
    }
    // Comments, templates and documents (never nested in a fragment) are dropped.
  }

  void write_element(const GumboNode& node) {
    const GumboElement& element = node.v.element;
    if (element.tag_namespace != GUMBO_NAMESPACE_HTML) return;
    const std::string_view name = gumbo_normalized_tagname(element.tag);
    if (contains(kDroppedWithContent, name)) return;
    if (!contains(kAllowedElements, name)) {
      push_children(element.children);
      return;
    }
    write_start_tag(out_, name, element);
    if (contains(kVoidElements, name)) return;
    pending_.push_back({nullptr, name});
    push_children(element.children);
  }

  std::string& out_;
  std::vector<Pending> pending_;
};

// Length of the longest prefix of `text` of at most max_bytes that ends on a UTF-8 boundary.
std::size_t utf8_prefix_length(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text.size();
  std::size_t length = max_bytes;
  while (length > 0 && (static_cast<unsigned char>(text[length]) & 0xC0) == 0x80) --length;
  return length;
}

// Header in front of every block handed to gumbo, linking all live blocks so that they can be
// freed even when a parse is abandoned half-way.
struct alignas(std::max_align_t) BlockHeader {
  BlockHeader* previous;
  BlockHeader* next;
  std::size_t size;
};

// Memory accounting for one parse. HTML tree construction can amplify input (re-opening
// formatting elements clones them), so the parse is abandoned past a fixed budget.
struct ParseArena {
  ParseArena() { blocks.previous = blocks.next = &blocks; }
  ParseArena(const ParseArena&) = delete;
  ParseArena& operator=(const ParseArena&) = delete;

  BlockHeader blocks{nullptr, nullptr, 0};  // sentinel of a circular list of live blocks
  std::size_t used = 0;
  std::jmp_buf* abandon = nullptr;
};

void* arena_allocate(void* userdata, std::size_t size) {
  auto* arena = static_cast<ParseArena*>(userdata);
  const std::size_t available = kMaxSanitizerParseMemory - arena->used;  // used <= the budget
  if (size > available || available - size < sizeof(BlockHeader)) std::longjmp(*arena->abandon, 1);
  void* raw = std::malloc(sizeof(BlockHeader) + size);
  if (raw == nullptr) std::longjmp(*arena->abandon, 1);
  auto* block = static_cast<BlockHeader*>(raw);
  block->size = sizeof(BlockHeader) + size;
  block->previous = &arena->blocks;
  block->next = arena->blocks.next;
  block->next->previous = block;
  arena->blocks.next = block;
  arena->used += block->size;
  return block + 1;
}

void arena_deallocate(void* userdata, void* pointer) {
  if (pointer == nullptr) return;
  auto* arena = static_cast<ParseArena*>(userdata);
  auto* block = static_cast<BlockHeader*>(pointer) - 1;
  block->previous->next = block->next;
  block->next->previous = block->previous;
  arena->used -= block->size;
  std::free(block);
}

void arena_release_all(ParseArena& arena) {
  while (arena.blocks.next != &arena.blocks) arena_deallocate(&arena, arena.blocks.next + 1);
}

// Runs gumbo with the arena as allocator; nullptr when the memory budget was exceeded (every
// block is then freed). Only trivially destructible objects live in this frame and in the C
// frames std::longjmp skips, which keeps the jump well-defined.
GumboOutput* parse_within_budget(const GumboOptions* options, std::string_view html, ParseArena* arena) {
  std::jmp_buf abandon;
  arena->abandon = &abandon;
  if (setjmp(abandon) != 0) {
    arena_release_all(*arena);
    return nullptr;
  }
  return gumbo_parse_with_options(options, html.data(), html.size());
}

}  // namespace

std::string sanitize_html(std::string_view html) {
  html = html.substr(0, utf8_prefix_length(html, kMaxSanitizedHtmlBytes));
  if (html.empty()) return "";
  ParseArena arena;
  GumboOptions options = kGumboDefaultOptions;
  options.allocator = arena_allocate;
  options.deallocator = arena_deallocate;
  options.userdata = &arena;
  options.fragment_context = GUMBO_TAG_DIV;
  options.fragment_namespace = GUMBO_NAMESPACE_HTML;
  // Recorded parse errors copy the open-element stack: quadratic memory on deep nesting.
  options.max_errors = 0;
  const auto destroy = [&options](GumboOutput* output) { gumbo_destroy_output(&options, output); };
  const std::unique_ptr<GumboOutput, decltype(destroy)> output(parse_within_budget(&options, html, &arena),
                                                               destroy);
  if (output == nullptr) return "";
  std::string out;
  out.reserve(html.size());
  Serializer(out).write_children_of(*output->root);
  return out;
}

}  // namespace cal
