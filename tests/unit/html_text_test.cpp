// Unit tests for cal/core/text/html_text.h: HTML descriptions as the plain text of DESCRIPTION.
#include "cal/core/text/html_text.h"

#include <doctest/doctest.h>

#include <string>

using cal::html_to_text;

TEST_CASE("html_to_text: plain text keeps its own line breaks") {
  CHECK(html_to_text("") == "");
  CHECK(html_to_text("Just text, with; punctuation") == "Just text, with; punctuation");
  CHECK(html_to_text("two\r\nlines\rand\nmore") == "two\nlines\nand\nmore");
  CHECK(html_to_text("Grüße 日本語") == "Grüße 日本語");
}

TEST_CASE("html_to_text: blocks, breaks, lists, links, entities") {
  CHECK(html_to_text("<p>One</p><p>Two</p>") == "One\n\nTwo");
  CHECK(html_to_text("<p>  spaced \n  out  </p>") == "spaced out");
  CHECK(html_to_text("a<br>b<br/><br>c") == "a\nb\n\nc");
  CHECK(html_to_text("<div>a</div><div>b</div>") == "a\nb");
  CHECK(html_to_text("<ul><li>x</li><li>y</li></ul>") == "- x\n- y");
  CHECK(html_to_text("<h2>Title</h2>text") == "Title\n\ntext");
  CHECK(html_to_text("<a href=\"https://e.org/\">site</a>") == "site <https://e.org/>");
  CHECK(html_to_text("<a href=\"https://e.org/\">https://e.org/</a>") == "https://e.org/");
  CHECK(html_to_text("Fish &amp; chips &lt;3 &eacute;") == "Fish & chips <3 é");
  CHECK(html_to_text("<b>bold</b> and <i>it</i>") == "bold and it");
  CHECK(html_to_text("<pre>  keep\n  this</pre>") == "  keep\n  this");
  CHECK(html_to_text("<img alt=\"a cat\" src=x>") == "a cat");
  CHECK(html_to_text("x<script>alert(1)</script><style>p{}</style>y") == "xy");
  CHECK(html_to_text("<p>unclosed <b>tags") == "unclosed tags");
}
