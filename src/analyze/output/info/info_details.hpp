// output/info/info_details.hpp — what `info` shows of the input's kind (run/input_details.hpp,
// filled by its reader), in text, Markdown and JSON. Contract: render_details writes the blocks in
// order (text: a blank line between two; key/value lines under a title are indented by two spaces,
// in Markdown a table titled so); nothing when there are none. write_details_json writes the
// members of `object` into the object `w` has open.
#pragma once

#include <string>

#include "output/json_writer.hpp"
#include "output/render.hpp"
#include "run/input_details.hpp"

namespace npkit {

void render_details(const InputDetails& details, OutputFormat format, std::string& out);
void write_details_json(const DetailValue& object, JsonWriter& w);

}  // namespace npkit
