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

TEST_CASE("html_to_text: the one-pass conversion of simple HTML gives the parser's text") {
  const char* const kInputs[] = {
      "<p>A night for everyone who loves football and history. Bring a friend, a smile.</p>",
      "<p>One</p><p>Two</p>",
      "<p>One<p>Two",
      "</p>x</p>",
      "a<br>b<br/>c<br />d<br><br>e",
      "<p>  lots \n of \t space  </p>  <p> x </p>",
      "<b>bold</b> <strong>strong</strong><i>it</i><em>em</em>",
      "<p><b>unclosed",
      "Fish &amp; chips &lt;3 &gt; &quot;q&quot; &#39;s&#39;",
      "Grüße 日本語 🎉 <p>ünïcödé</p>",
      "<p></p><p></p>x",
      "<br><p>x</p><br>",
      "x <b> </b> y",
      "<p>a</p>\n\n<p>b</p>\n",
  };
  for (const char* input : kInputs) {
    CAPTURE(input);
    CHECK(html_to_text(input) == cal::html_to_text_parsed(input));
  }
  // Anything else takes the parser: attributes, other tags, other references, stray brackets.
  CHECK(html_to_text("<p class=\"x\">a</p>") == "a");
  CHECK(html_to_text("a &eacute; b") == "a é b");
  CHECK(html_to_text("a > b") == "a > b");
  CHECK(html_to_text("a < b") == "a < b");
  CHECK(html_to_text("<p>a</br>b</p>") == cal::html_to_text_parsed("<p>a</br>b</p>"));
}
