#!/usr/bin/env node
'use strict';
// launches the Python MCP server over stdio
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const script = path.join(__dirname, '..', 'server', 'weather_mcp.py');
const hasUv = spawnSync('uv', ['--version'], { stdio: 'ignore' }).status === 0;
const cmd = hasUv ? 'uv' : (process.platform === 'win32' ? 'python' : 'python3');
const args = hasUv ? ['run', '--with', 'mcp[cli]>=1.2', '--with', 'httpx', script] : [script];
const child = spawn(cmd, args, { stdio: 'inherit' });
child.on('exit', (c) => process.exit(c || 0));
