import { analyzeSource } from './helpers';

const caps = (code: string, file = 'index.js') => analyzeSource({ [file]: code }).capabilities;

describe('capabilities from the syntax tree', () => {
  describe('process', () => {
    it.each([
      ["const cp = require('child_process'); cp.exec('git status');", 'git'],
      ["const { spawn } = require('node:child_process'); spawn('python3', ['x.py']);", 'python3'],
      ["import { execFile as run } from 'child_process'; run('/usr/bin/curl', ['-s']);", 'curl'],
      ["import * as cp from 'child_process'; cp.fork('./worker.js');", 'node'],
      ["const cp = require('chi' + 'ld_process'); cp['ex' + 'ec']('whoami');", 'whoami'],
      ['const cp = require(`child_${"process"}`); cp.execSync("uname -a");', 'uname'],
      ["const cp = require('\\x63hild_process'); cp.spawnSync('ls');", 'ls'],
      ["const cp = require(Buffer.from('Y2hpbGRfcHJvY2Vzcw==', 'base64').toString()); cp.exec('id');", 'id'],
      ["const cp = require(atob('Y2hpbGRfcHJvY2Vzcw==')); cp.exec('hostname');", 'hostname'],
      ["const r = global['require']; r('child_process').exec('date');", 'date'],
      ["const cp = require('child_process'); Reflect.get(cp, 'exec')('tar xf a.tar');", 'tar'],
      ["const cp = require('child_process'); cp.exec.call(null, 'make && make install');", 'make'],
      ["require('child_process').exec('cd /tmp && rm -f x');", 'rm'],
      ["const execa = require('execa'); execa('docker', ['ps']);", 'docker'],
    ])('%s', (code, command) => {
      const c = caps(code);
      expect(c.process.spawns_children).toBe(true);
      expect(c.process.commands).toContain(command);
    });
  });

  describe('network', () => {
    it('fetch, axios, got, undici, ws, http and DNS targets', () => {
      const c = caps(
        `
        import axios from 'axios';
        import got from 'got';
        import { request } from 'undici';
        import WebSocket from 'ws';
        const http = require('http');
        const dns = require('dns');
        fetch('https://api.one.example/v1');
        axios.get('https://two.example/x');
        got('http://three.example');
        request('https://four.example/y');
        new WebSocket('wss://five.example/socket');
        http.request({ hostname: 'six.example', port: 80 });
        dns.lookup('seven.example', () => {});
      `,
        'index.mjs',
      );
      expect(c.network.makes_requests).toBe(true);
      expect(c.network.domains).toEqual([
        'api.one.example',
        'five.example',
        'four.example',
        'seven.example',
        'six.example',
        'three.example',
        'two.example',
      ]);
      expect(c.network.protocols).toEqual(['dns', 'http', 'https', 'wss']);
    });

    it.each([
      ["const undici = require('undici'); const c = new undici.Client('https://origin.example');", 'Client'],
      [
        "import { Pool } from 'undici'; const p = new Pool('https://origin.example', { connections: 4 });",
        'Pool',
      ],
      [
        "const { Agent, setGlobalDispatcher } = require('undici'); setGlobalDispatcher(new Agent());",
        'Agent',
      ],
    ])('undici dispatchers are network use: %s', (code, what) => {
      const r = analyzeSource({ 'index.mjs': code });
      expect(r.capabilities.network.makes_requests).toBe(true);
      expect(r.evidence.find((f) => f.rule === 'js.request')?.message).toContain(`undici.${what}`);
      if (what !== 'Agent') expect(r.capabilities.network.domains).toEqual(['origin.example']);
    });
    it('raw sockets give tcp and udp', () => {
      const c = caps("require('net').connect(4444, '203.0.113.9'); require('dgram').createSocket('udp4');");
      expect(c.network.protocols).toEqual(['tcp', 'udp']);
    });
    it('URL literals only count in files that use the network', () => {
      expect(caps("const docs = 'https://docs.example/readme';").network.domains).toEqual([]);
    });
  });

  describe('filesystem', () => {
    it('tells reads from writes and keeps literal and home paths', () => {
      const c = caps(`
        const fs = require('fs');
        const os = require('os');
        const path = require('path');
        fs.readFileSync('/etc/hosts');
        fs.promises.writeFile(path.join(os.homedir(), '.config', 'app.json'), '{}');
      `);
      expect(c.filesystem).toEqual({
        reads: true,
        writes: true,
        paths: ['/etc/hosts', '~/.config/app.json'],
      });
    });
    it('reads only', () => {
      const c = caps(
        "import { readFile } from 'node:fs/promises'; await readFile('./data.json');",
        'index.mjs',
      );
      expect(c.filesystem.reads).toBe(true);
      expect(c.filesystem.writes).toBe(false);
    });
  });

  describe('environment', () => {
    it('names from members, brackets and destructuring; whole-environment access as *', () => {
      const c = caps(`
        const a = process.env.API_URL;
        const b = process.env['DEBUG'];
        const { HOME, NODE_ENV: mode } = process.env;
        const all = JSON.stringify(process.env);
      `);
      expect(c.environment.accessed_vars).toEqual(['*', 'API_URL', 'DEBUG', 'HOME', 'NODE_ENV']);
    });
  });

  describe('native', () => {
    it('bindings, node-gyp-build and .node requires', () => {
      const c = caps(
        "require('bindings')('addon'); require('node-gyp-build')(__dirname); require('./build/Release/x.node');",
      );
      expect(c.native.has_native).toBe(true);
      expect(c.native.native_modules).toEqual(['addon.node', 'build/Release/x.node']);
    });
  });

  it('TypeScript files are parsed too', () => {
    const c = caps(
      "import { spawn } from 'child_process';\nconst cmd: string = 'node';\nspawn(cmd as string, [] as string[]);",
      'run.ts',
    );
    expect(c.process.commands).toEqual(['node']);
  });

  it('a file that does not parse still gets text-level checks', () => {
    const r = analyzeSource({ 'broken.js': 'const x = process.env.SECRET_TOKEN; function ( {' });
    expect(r.capabilities.environment.accessed_vars).toContain('SECRET_TOKEN');
    expect(r.skipped_files[0]?.reason).toMatch(/did not parse|blanking line/);
  });
});
