#!/usr/bin/env node
// pkgscan: checks a project's npm dependencies against the pkgscan API (see docs/cli.md).
// The client is TypeScript run through tsx's loader, so no build step is needed.
import process from 'node:process';
import { register } from 'tsx/esm/api';

register();
// A closed pipe (`pkgscan --json | head`) is not an error worth a stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
const { main } = await import('../cli/main.ts');
process.exitCode = await main({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
});
