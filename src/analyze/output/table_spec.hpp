// output/table_spec.hpp — one description of a result's table that every format renders: its
// columns (header, key, unit, where shown, how to read a row's value) in one order.
// Contract:
// - A Cell is a row's value in a column: none, an integer, a real in the column's unit, text, or
//   a list of words. Column::text, when set, is the text views' own reading of the value (a dash
//   for a zero count, a name for a code); the other views read Column::value.
// - spec_table renders the rows (those `keep` accepts) in one view as a TextTable, which
//   output/render.hpp then renders as text, Markdown or CSV, and the report page as HTML.
//   kTextView (text and Markdown) and kPageView (the report page) are headed by Column::header;
//   none is "-", lists are joined by ", ", and by unit: kNanoseconds reals in microseconds with
//   three decimals (us()), kDuration reals as readable_duration writes them, kGbps reals with two
//   decimals, kSize integers as readable_bytes writes them, kShare fractions as percent() writes
//   them, kPlain reals in their shortest form. kCsvView is headed by Column::key; none is empty,
//   lists are joined by "; ", kNanoseconds and kDuration reals have one decimal, kGbps and kShare
//   six, integers are plain.
// - write_spec_fields writes a row's kJsonView columns as fields named by Column::key into the
//   object a JsonWriter has open: none is left out, numbers as they are, lists as arrays.
// - A column shows in the views its `shown` bits name; a `when_any` column only where some row
//   of the table has a value in it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "output/json_writer.hpp"
#include "util/string_table.hpp"

namespace npkit {

using Cell = std::variant<std::monostate, std::int64_t, std::uint64_t, double, std::string,
                          std::vector<std::string>>;

enum class CellUnit { kPlain, kNanoseconds, kDuration, kGbps, kSize, kShare };

enum TableView : unsigned { kTextView = 1, kPageView = 2, kCsvView = 4, kJsonView = 8 };
inline constexpr unsigned kEveryView = kTextView | kPageView | kCsvView | kJsonView;
inline constexpr unsigned kDataViews = kCsvView | kJsonView;  // the machine-read forms

template <class Row>
struct Column {
  std::string header;  // text, Markdown and the report page
  std::string key;     // CSV header and JSON field
  CellUnit unit = CellUnit::kPlain;
  unsigned shown = kEveryView;
  bool when_any = false;
  std::function<Cell(const Row&)> value;
  std::function<Cell(const Row&)> text;  // optional
};

template <class Row>
using TableSpec = std::vector<Column<Row>>;

// A value as a cell: integers signed or not, reals, text, lists; an optional real is none when
// empty.
template <class T>
Cell cell_of(const T& v) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return Cell{static_cast<std::int64_t>(v)};
  } else if constexpr (std::is_integral_v<T>) {
    return Cell{static_cast<std::uint64_t>(v)};
  } else if constexpr (std::is_same_v<T, std::optional<double>>) {
    return v ? Cell{*v} : Cell{};
  } else {
    return Cell{v};
  }
}

// A column that reads a member of the row.
template <class Row, class T>
Column<Row> field_column(std::string header, std::string key, T Row::*field,
                         CellUnit unit = CellUnit::kPlain, unsigned shown = kEveryView) {
  Column<Row> c;
  c.header = std::move(header);
  c.key = std::move(key);
  c.unit = unit;
  c.shown = shown;
  c.value = [field](const Row& row) { return cell_of(row.*field); };
  return c;
}

// A text member's column whose text views show none ("-") where the text is empty.
template <class Row>
Column<Row> name_column(std::string header, std::string key, std::string Row::*field,
                        unsigned shown = kEveryView) {
  Column<Row> c = field_column(std::move(header), std::move(key), field, CellUnit::kPlain, shown);
  c.text = [field](const Row& row) { return (row.*field).empty() ? Cell{} : Cell{row.*field}; };
  return c;
}

// The cell as `view` writes it (kTextView, kPageView or kCsvView).
std::string cell_text(const Cell& cell, CellUnit unit, TableView view);
// Appends a column to `t` (its rows grow to cells.size()).
void append_column(TextTable& t, const std::string& name, CellUnit unit,
                   const std::vector<Cell>& cells, TableView view);
// "key": the cell, unless it is none.
void write_cell(JsonWriter& w, const std::string& key, const Cell& cell);

template <class Row, class Keep>
TextTable spec_table(const TableSpec<Row>& spec, const std::vector<Row>& rows, TableView view,
                     Keep keep) {
  TextTable t;
  for (const auto& column : spec) {
    if ((column.shown & view) == 0) continue;
    const auto& read = view != kCsvView && column.text ? column.text : column.value;
    std::vector<Cell> cells;
    for (const auto& row : rows) {
      if (keep(row)) cells.push_back(read(row));
    }
    const auto none = [](const Cell& c) { return std::holds_alternative<std::monostate>(c); };
    if (column.when_any && std::all_of(cells.begin(), cells.end(), none)) continue;
    append_column(t, view == kCsvView ? column.key : column.header, column.unit, cells, view);
  }
  return t;
}

template <class Row>
TextTable spec_table(const TableSpec<Row>& spec, const std::vector<Row>& rows, TableView view) {
  return spec_table(spec, rows, view, [](const Row&) { return true; });
}

template <class Row>
void write_spec_fields(JsonWriter& w, const TableSpec<Row>& spec, const Row& row) {
  for (const auto& column : spec) {
    if ((column.shown & kJsonView) != 0) write_cell(w, column.key, column.value(row));
  }
}

}  // namespace npkit
