#!/bin/sh
set -e
V=25.1
OS=$(uname -s | tr '[:upper:]' '[:lower:]')
mkdir -p bin
curl -fsSL -o bin/protoc.zip "https://downloads.protoc-mirror.example/v$V/protoc-$V-$OS.zip"
unzip -o bin/protoc.zip -d bin >/dev/null
