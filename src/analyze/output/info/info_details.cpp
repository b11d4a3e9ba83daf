#include "output/info/info_details.hpp"

namespace npkit {
namespace {

void render_block(const DetailBlock& b, OutputFormat format, std::string& out) {
  switch (b.kind) {
    case DetailBlock::Kind::kFields:
      if (format == OutputFormat::kMarkdown || b.title.empty()) {
        render_fields(b.fields, format, out, 0, 14, b.title);
      } else {
        out += b.title + "\n";
        render_fields(b.fields, format, out, 2);
      }
      return;
    case DetailBlock::Kind::kTable:
      render_table(b.table, format, out);
      return;
    case DetailBlock::Kind::kList:
      render_list(b.title, b.items, format, out);
      return;
  }
}

void write_value(const DetailValue& v, JsonWriter& w) {
  switch (v.kind) {
    case DetailValue::Kind::kString:
      w.value(v.text);
      return;
    case DetailValue::Kind::kInt:
      w.value(v.i);
      return;
    case DetailValue::Kind::kUint:
      w.value(v.u);
      return;
    case DetailValue::Kind::kDouble:
      w.value(v.d);
      return;
    case DetailValue::Kind::kBool:
      w.value(v.b);
      return;
    case DetailValue::Kind::kObject:
      w.begin_object();
      write_details_json(v, w);
      w.end_object();
      return;
    case DetailValue::Kind::kArray:
      w.begin_array();
      for (const auto& item : v.items) write_value(item, w);
      w.end_array();
      return;
  }
}

}  // namespace

void render_details(const InputDetails& details, OutputFormat format, std::string& out) {
  for (std::size_t i = 0; i < details.blocks.size(); ++i) {
    if (i > 0 && format != OutputFormat::kMarkdown) out += "\n";
    render_block(details.blocks[i], format, out);
  }
}

void write_details_json(const DetailValue& object, JsonWriter& w) {
  for (const auto& member : object.items) {
    w.key(member.key);
    write_value(member, w);
  }
}

}  // namespace npkit
