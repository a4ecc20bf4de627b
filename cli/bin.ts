/**
 * The process entry of pkgscan: wires the real argv, environment and streams to `main`. Both
 * `bin/pkgscan.mjs` (source, through tsx) and the one-file bundle `dist/pkgscan.mjs`
 * (`npm run build:cli`) start here.
 */
import process from 'node:process';
import { main } from './main';

// A closed pipe (`pkgscan --json | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
});
