#!/usr/bin/env node
// Entry of the pkgscan GitHub Action (action.yml): reads the inputs the composite step passes as
// PKGSCAN_INPUT_* environment variables, runs the one-file CLI with them, appends its Markdown
// summary to the job summary ($GITHUB_STEP_SUMMARY) and writes `passed`, `exit-code` and `sarif`
// to $GITHUB_OUTPUT. It exits with the CLI's exit code, so the step fails by policy. It uploads
// nothing: the SARIF file is for a later github/codeql-action/upload-sarif step.
//
// The CLI is the `cli` input when given, else dist/pkgscan.mjs beside this folder; a checkout
// without it (a branch, not a release tag) builds it once with `npm ci` and `npm run build:cli`.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const env = process.env;
const actionRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const input = (name) => (env[`PKGSCAN_INPUT_${name}`] ?? '').trim();
const flag = (name) => /^(?:true|yes|1)$/i.test(input(name));

/** A workflow command's data, escaped as the runner expects (%, CR and LF). */
const escapeData = (text) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

function fail(message, code = 2) {
  process.stderr.write(`::error title=pkgscan::${escapeData(message)}\n`);
  process.exit(code);
}

/** Runs a program with the step's terminal; a shell only for npm's .cmd on Windows. */
function run(command, args, options) {
  const res = spawnSync(command, args, { stdio: 'inherit', shell: command.endsWith('.cmd'), ...options });
  if (res.error) fail(`cannot run ${command}: ${res.error.message}`, 3);
  return res.status ?? 1;
}

function cliPath() {
  const given = input('CLI');
  if (given) {
    const full = path.resolve(given);
    if (!existsSync(full)) fail(`the cli input names ${given}, which does not exist`);
    return full;
  }
  const bundled = path.join(actionRoot, 'dist', 'pkgscan.mjs');
  if (existsSync(bundled)) return bundled;
  process.stdout.write('::group::Building the pkgscan CLI (dist/pkgscan.mjs is not in this checkout)\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const ok =
    run(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: actionRoot }) === 0 &&
    run(npm, ['run', 'build:cli'], { cwd: actionRoot }) === 0;
  process.stdout.write('::endgroup::\n');
  if (!ok || !existsSync(bundled)) fail('building the CLI failed (see the log above)', 3);
  return bundled;
}

function cliArgs(markdownFile) {
  const apiUrl = input('API_URL');
  if (!apiUrl) fail('the api-url input is required');
  const args = ['check', '--api-url', apiUrl, '--markdown', markdownFile, '--no-color'];
  const lockfile = input('LOCKFILE');
  if (lockfile) args.push(lockfile);
  const valued = [
    ['FAIL_ON', '--fail-on'],
    ['FAIL_ON_CVE', '--fail-on-cve'],
    ['FAIL_ON_THREAT', '--fail-on-threat'],
    ['MIN_TRUST', '--min-trust'],
    ['COOLDOWN', '--cooldown'],
    ['CONFIG', '--config'],
    ['SARIF', '--sarif'],
  ];
  for (const [name, option] of valued) if (input(name)) args.push(option, input(name));
  if (flag('FAIL_ON_UNKNOWN')) args.push('--fail-on-unknown');
  if (flag('IGNORE_DEV')) args.push('--ignore-dev');
  if (flag('SCAN_MISSING')) args.push('--scan-missing');
  return args;
}

const cli = cliPath();
const scratch = mkdtempSync(path.join(tmpdir(), 'pkgscan-action-'));
const markdown = path.join(scratch, 'summary.md');
const code = run(process.execPath, [cli, ...cliArgs(markdown)], { cwd: process.cwd() });

if (env.GITHUB_STEP_SUMMARY && existsSync(markdown))
  appendFileSync(env.GITHUB_STEP_SUMMARY, `${readFileSync(markdown, 'utf8')}\n`);
if (env.GITHUB_OUTPUT) {
  const sarif = input('SARIF');
  const written = sarif && existsSync(path.resolve(sarif)) ? path.resolve(sarif) : '';
  appendFileSync(env.GITHUB_OUTPUT, `passed=${code === 0}\nexit-code=${code}\nsarif=${written}\n`);
}
rmSync(scratch, { recursive: true, force: true });
if (code === 1)
  process.stderr.write('::error title=pkgscan::dependencies fail the policy (see the job summary)\n');
process.exit(code);
