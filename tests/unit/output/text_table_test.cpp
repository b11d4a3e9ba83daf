// Text, CSV and Markdown rendering of TextTable; expected strings written out by hand.
#include <catch2/catch.hpp>

#include "output/text_table.hpp"

using npkit::TextTable;

namespace {

TextTable sample() {
  TextTable t;
  t.title = "Sizes";
  t.columns = {"coll", "bytes", "note"};
  t.add_row({"AllReduce", "1024", "a|b"});
  t.add_row({"AllGather", "", "two\nlines"});
  return t;
}

}  // namespace

TEST_CASE("text table: numbers align right, text left, trailing spaces trimmed", "[render]") {
  std::string out;
  npkit::render_text(sample(), out);
  CHECK(out ==
        "Sizes\n"
        "coll       bytes  note\n"
        "AllReduce   1024  a|b\n"
        "AllGather         two\nlines\n");
}

TEST_CASE("text table: CSV quotes cells with commas, quotes or line breaks", "[render]") {
  TextTable t;
  t.columns = {"a", "b"};
  t.add_row({"x,y", "say \"hi\""});
  t.add_row({"plain"});
  std::string out;
  npkit::render_csv(t, out);
  CHECK(out == "a,b\n\"x,y\",\"say \"\"hi\"\"\"\nplain,\n");
}

TEST_CASE("text table: Markdown escapes pipes, joins lines, right-aligns numeric columns",
          "[render]") {
  std::string out;
  npkit::render_markdown(sample(), out);
  CHECK(out ==
        "**Sizes**\n\n"
        "| coll | bytes | note |\n"
        "| --- | ---: | --- |\n"
        "| AllReduce | 1024 | a\\|b |\n"
        "| AllGather |  | two lines |\n"
        "\n");
}

TEST_CASE("text table: Markdown pads short rows and needs no title", "[render]") {
  TextTable t;
  t.columns = {"rank", "ms"};
  t.add_row({"0"});
  std::string out;
  npkit::render_markdown(t, out);
  CHECK(out == "| rank | ms |\n| ---: | --- |\n| 0 |  |\n\n");
}

TEST_CASE("text table: a table wider than 120 columns wraps its last, prose column", "[output]") {
  npkit::TextTable t;
  t.columns = {"rank", "detail"};
  const std::string word = "abcdefghi ";  // 10 columns with its space
  std::string detail;
  for (int i = 0; i < 15; ++i) detail += word;  // 150 columns
  detail.pop_back();
  t.add_row({"0", detail});
  std::string out;
  npkit::render_text(t, out);
  // "rank" + 2 spaces: the detail starts at column 6 and gets 114 columns, 11 words a line.
  std::string first = "rank  detail\n   0  ";
  std::string second = "      ";
  for (int i = 0; i < 11; ++i) first += word;
  for (int i = 11; i < 15; ++i) second += word;
  first.pop_back();
  second.pop_back();
  CHECK(out == first + "\n" + second + "\n");
}
