#include "output/table_spec.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <type_traits>

#include "output/render.hpp"
#include "util/readable_duration.hpp"

namespace npkit {
namespace {

std::string real_text(double v, CellUnit unit, TableView view) {
  const bool csv = view == kCsvView;
  switch (unit) {
    case CellUnit::kNanoseconds:
      return csv ? fmt::format("{:.1f}", v) : us(v);
    case CellUnit::kDuration:
      return csv ? fmt::format("{:.1f}", v) : readable_duration(v);
    case CellUnit::kGbps:
      return csv ? fmt::format("{:.6f}", v) : gbps(v);
    case CellUnit::kShare:
      return csv ? fmt::format("{:.6f}", v) : percent(v);
    case CellUnit::kPlain:
    case CellUnit::kSize:
      break;
  }
  return fmt::format("{}", v);
}

}  // namespace

std::string cell_text(const Cell& cell, CellUnit unit, TableView view) {
  const bool csv = view == kCsvView;
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return csv ? "" : "-";
        } else if constexpr (std::is_same_v<T, double>) {
          return real_text(v, unit, view);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return v;
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          return fmt::format("{}", fmt::join(v, csv ? "; " : ", "));
        } else if (unit == CellUnit::kSize && !csv) {
          return readable_bytes(static_cast<std::uint64_t>(v));
        } else {
          return std::to_string(v);
        }
      },
      cell);
}

void append_column(TextTable& t, const std::string& name, CellUnit unit,
                   const std::vector<Cell>& cells, TableView view) {
  t.columns.push_back(name);
  if (t.rows.size() < cells.size()) t.rows.resize(cells.size());
  for (std::size_t r = 0; r < cells.size(); ++r) {
    t.rows[r].resize(t.columns.size() - 1);
    t.rows[r].push_back(cell_text(cells[r], unit, view));
  }
}

void write_cell(JsonWriter& w, const std::string& key, const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return;
  w.key(key);
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          w.begin_array();
          for (const auto& word : v) w.value(word);
          w.end_array();
        } else if constexpr (!std::is_same_v<T, std::monostate>) {
          w.value(v);
        }
      },
      cell);
}

}  // namespace npkit
