#!/usr/bin/env node
'use strict';
// `env-init`: writes the variables of the current shell that start with APP_ into .env.local.
const fs = require('fs');
const lines = Object.entries(process.env)
  .filter(([k]) => k.startsWith('APP_'))
  .map(([k, v]) => `${k}=${JSON.stringify(v)}`);
fs.writeFileSync('.env.local', lines.join('\n') + '\n');
