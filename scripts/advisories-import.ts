/**
 * Loads OSV advisories into the table named by ADVISORIES_TABLE (standard AWS SDK environment;
 * AWS_ENDPOINT_URL_DYNAMODB points it at a local DynamoDB):
 *
 *   npm run advisories:import -- <folder | file.zip | http(s) URL of a zip>
 *
 * Prints the import report as JSON; exits 1 when the source broke off (truncated download) or
 * could not be read, 0 otherwise (malformed records are listed in the report and skipped).
 */
import { advisoryStoreFromEnv } from '../lambdas/advisories/advisory-store';
import { importOsv, summariseReport } from '../lambdas/advisories/importer';
import { openOsvSource } from '../lambdas/advisories/sources';

async function main(): Promise<number> {
  const location = process.argv[2];
  if (!location || process.argv.length > 3) {
    process.stderr.write('usage: npm run advisories:import -- <folder | file.zip | url>\n');
    return 2;
  }
  // The SDK pin is deliberate (../shared/TOOLCHAIN.md): no Node 20 notice in the report output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const store = advisoryStoreFromEnv();
  const started = Date.now();
  const report = await importOsv(await openOsvSource(location), store);
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(`${JSON.stringify({ ...summariseReport(report), seconds }, null, 2)}\n`);
  return report.error === undefined ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`advisories:import failed: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
