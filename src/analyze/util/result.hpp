// result.hpp — value-or-error results for the analyzer library.
// Contract: library functions never throw for bad input; they return Result<T> holding either a
// value or an Error whose message names the file, the offset or record, and what was expected.
// The application maps an Error to exit code 2 at its single error boundary.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace npkit {

struct Error {
  std::string message;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

struct Ok {};
using Status = Result<Ok>;

}  // namespace npkit

// Returns the error of `expr` (a Result) from the enclosing function if it holds one.
#define NPKIT_TRY(expr)                                            \
  do {                                                             \
    auto&& npkit_try_result_ = (expr);                             \
    if (!npkit_try_result_.ok()) return npkit_try_result_.error(); \
  } while (0)

// Returns the error of `expr` (a Result) from the enclosing function if it holds one, else moves
// its value into `lhs`, which may declare a variable: NPKIT_ASSIGN(auto text, read(path)).
// Expands to several statements: not for the body of an unbraced if or loop.
#define NPKIT_ASSIGN(lhs, expr) \
  NPKIT_ASSIGN_IMPL_(NPKIT_CONCAT_(npkit_assign_, __LINE__), lhs, expr)
#define NPKIT_ASSIGN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                       \
  if (!tmp.ok()) return tmp.error();       \
  lhs = std::move(tmp).value()
#define NPKIT_CONCAT_(a, b) NPKIT_CONCAT_INNER_(a, b)
#define NPKIT_CONCAT_INNER_(a, b) a##b
