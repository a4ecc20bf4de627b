/**
 * `npm run lint:openapi`: the committed OpenAPI document through Redocly's recommended rules.
 * Telemetry and the update check are turned off, so the lint makes no network call.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const cli = path.join(path.dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
const result = spawnSync(process.execPath, [cli, 'lint', 'openapi/openapi.json', '--format=summary'], {
  stdio: 'inherit',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
});
process.exitCode = result.status ?? 1;
