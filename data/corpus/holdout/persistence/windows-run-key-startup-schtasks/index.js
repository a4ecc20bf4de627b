'use strict';

const { spawn } = require('child_process');

function toast(title, message) {
  if (process.platform !== 'win32') return Promise.resolve(false);
  const ps = `
[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] | Out-Null
$t = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02)
$n = $t.GetElementsByTagName('text'); $n.Item(0).AppendChild($t.CreateTextNode(${JSON.stringify(title)})) | Out-Null
$n.Item(1).AppendChild($t.CreateTextNode(${JSON.stringify(message)})) | Out-Null
[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier('Node.js').Show([Windows.UI.Notifications.ToastNotification]::new($t))`;
  return new Promise((resolve) => {
    const p = spawn('powershell.exe', ['-NoProfile', '-Command', ps], { windowsHide: true });
    p.on('exit', (c) => resolve(c === 0));
  });
}

module.exports = { toast };
