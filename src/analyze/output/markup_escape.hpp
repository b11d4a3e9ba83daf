// output/markup_escape.hpp — text made safe inside HTML and XML markup.
// Contract: & < > " ' become &amp; &lt; &gt; &quot; &#39;; every other byte is kept (UTF-8
// passes through). The result is valid in element content and in single- or double-quoted
// attribute values of both HTML and XML.
#pragma once

#include <string>
#include <string_view>

namespace npkit {

void append_markup_escaped(std::string& out, std::string_view text);
std::string markup_escaped(std::string_view text);

}  // namespace npkit
