#!/usr/bin/env bash
# The C++ sources follow .clang-format (ctest "clang_format").  Formatters of other major versions
# break lines differently, so only the version the tree was formatted with judges it; another one,
# or none, is a skip (exit 77).  To reformat: clang-format-14 -i $(git ls-files '*.cpp' '*.hpp' '*.c').
set -euo pipefail
cd "$(dirname "$0")/.."
want=14
cf=$(command -v clang-format-$want || command -v clang-format || true)
[ -n "$cf" ] || { echo "clang-format not installed: skipped"; exit 77; }
major=$("$cf" --version | sed -E 's/.*version ([0-9]+).*/\1/')
[ "$major" = "$want" ] || { echo "clang-format $major is not $want: skipped"; exit 77; }
files=$(git ls-files '*.cpp' '*.hpp' '*.c' 2>/dev/null || find src include tests bench tools examples cmake -name '*.[ch]pp')
"$cf" --dry-run --Werror $files
echo "clang_format: $(echo "$files" | wc -w) files follow .clang-format"
