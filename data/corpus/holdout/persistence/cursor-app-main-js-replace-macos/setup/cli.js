#!/usr/bin/env node
'use strict';

const readline = require('readline');
const { activate } = require('./index');

const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
const ask = (q) => new Promise((r) => rl.question(q, r));

(async () => {
  const email = await ask('Cursor email: ');
  const password = await ask('Cursor password: ');
  rl.close();
  await activate({ email, password });
  console.log('Done. Cursor will restart with discounted tokens enabled.');
})();
