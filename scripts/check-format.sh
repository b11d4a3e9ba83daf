#!/usr/bin/env bash
# Checks that C++/CUDA sources under include/ src/ apps/ tests/ bench/ match .clang-format.
#
#   scripts/check-format.sh          list the files clang-format would change; exit 1 if any
#   scripts/check-format.sh --fix    reformat those files in place
#
# Files: tracked ones plus untracked ones that git does not ignore. Without clang-format the check
# is skipped with a note, except under CI (CI set), where that is an error.
set -euo pipefail
top=$(git rev-parse --show-toplevel)
cd "$top"

if ! command -v clang-format >/dev/null; then
  if [[ -n ${CI:-} ]]; then
    echo "check-format: clang-format is not installed (run scripts/install-deps.sh --extra clang-format)" >&2
    exit 1
  fi
  echo "check-format: clang-format is not installed; nothing checked or formatted" >&2
  exit 0
fi

patterns=()
for dir in include src apps tests bench; do
  for ext in cpp cc hpp h cu cuh; do patterns+=("$dir/*.$ext"); done
done
# Tracked files deleted in the working tree are still listed by git: keep only those on disk.
existing=()
while IFS= read -r -d '' f; do
  [[ -f $f ]] && existing+=("$f")
done < <(git ls-files -z --cached --others --exclude-standard -- "${patterns[@]}")
[[ ${#existing[@]} -eq 0 ]] && exit 0

if [[ ${1:-} == --fix ]]; then
  clang-format -i -- "${existing[@]}"
  exit 0
fi

bad=()
for f in "${existing[@]}"; do
  clang-format --dry-run -Werror -- "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [[ ${#bad[@]} -gt 0 ]]; then
  echo "check-format: these files do not match .clang-format (fix with 'make format'):" >&2
  printf '%s\n' "${bad[@]}"
  exit 1
fi
