// HTML sanitizer for event descriptions: parses user HTML with a real HTML5 parser (libgumbo)
// and re-serializes only an allow-list of harmless elements and attributes, so the result can
// be embedded in a page without enabling script execution.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cal {

// Inputs longer than this are cut (at a UTF-8 character boundary) before parsing, which bounds
// the parser's time (deeply nested markup costs time quadratic in the depth); the output is
// sanitized either way.
inline constexpr std::size_t kMaxSanitizedHtmlBytes = 128 * 1024;

// Memory the HTML parser may use for one call. Hostile markup can make HTML tree construction
// build far more nodes than the input has tags (e.g. thousands of unclosed <b x=N> re-opened in
// every paragraph); past this budget the parse is abandoned and sanitize_html() returns "".
// Ordinary markup of kMaxSanitizedHtmlBytes needs about 4 MiB, 43,000 nested <b> about 11 MiB.
inline constexpr std::size_t kMaxSanitizerParseMemory = 32 * 1024 * 1024;

// Returns a safe HTML fragment built from `html`, parsed as the content of a <div>.
//  * Kept elements (with the attributes listed): a (href, title, target, rel), abbr (title), b,
//    blockquote, br, cite, code, del, div, em, figcaption, figure, h1-h6, hr, i,
//    img (src, alt, title, width, height), li, ol, p, pre, q, s, span, strike, strong, sub, sup,
//    table, tbody, td/th (colspan, rowspan), thead, tr, u, ul; `class` is kept on all of them.
//    Every other attribute (on*, style, id, ...) is dropped. width/height/colspan/rowspan must
//    be digits (width/height may end in '%'). href may use http, https, mailto or no scheme;
//    src http, https or no scheme; the check is made on the entity-decoded value with ASCII
//    whitespace and control characters removed, so "java&#x09;script:" is rejected too.
//  * Dropped with their content: script, style, iframe, object, embed, noscript, template,
//    applet, noembed, noframes, frame, frameset, and everything in SVG or MathML.
//  * Any other element loses its tags but keeps its content; comments are dropped.
// Output: text escapes &, <, > (&amp; &lt; &gt;); attribute values are double-quoted and escape
// &, ", <, >; br, hr, img have no end tag; the parser closes unclosed and misnested tags.
// Plain text without markup comes back unchanged except that &, < and > are escaped - and, as
// the HTML parser normalizes input, character references are decoded ("&eacute;" → "é"),
// CR and CRLF become LF, NUL bytes are dropped and invalid UTF-8 becomes U+FFFD.
// Never throws except std::bad_alloc.
std::string sanitize_html(std::string_view html);

}  // namespace cal
