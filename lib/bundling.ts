/**
 * How every Lambda is bundled, in one place: the stack's `NodejsFunction`s (lib/constructs/service-function.ts)
 * and the bundle benchmark (bench/bundles.ts) both read these settings, so the figures the benchmark
 * reports are those of the deployed code.
 *
 * Choices (measured figures in docs/infrastructure.md):
 * - ESM output (`index.mjs`). The project is ESM and middy 7 ships ESM only; ESM lets esbuild keep
 *   `import.meta` and top-level `await`. CommonJS dependencies bundled into ESM call `require()` for
 *   Node built-ins, which esbuild cannot turn into imports, so the banner defines a real `require`
 *   (plus `__filename`/`__dirname`, which some CommonJS dependencies read).
 * - Target `node20`: the syntax level of the oldest Node that runs these bundles (the local Node 20);
 *   the Lambda runtime is newer and runs it as well.
 * - The AWS SDK is bundled, not taken from the Lambda runtime: the code runs against the SDK version
 *   pinned in package-lock.json, and one minified file loads about three times faster than the SDK's
 *   many module files (≈ 60 ms against ≈ 180 ms measured on the local Node 20).
 * - Minified, with external source maps without the sources' text (smaller upload; stack traces are
 *   mapped with `--enable-source-maps`, set by the function wrapper).
 */
import type { BuildOptions } from 'esbuild';
import { join } from 'node:path';
import { LogLevel, OutputFormat, SourceMapMode, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { PROJECT_ROOT } from './paths';

/** esbuild target: the oldest Node the bundles must run on (Lambda's runtime is newer). */
export const BUNDLE_TARGET = 'node20';

/** Defines what CommonJS code bundled into an ES module expects to find. */
export const ESM_BANNER = [
  "import { createRequire as __bundleCreateRequire } from 'node:module';",
  "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
  "import { dirname as __bundleDirname } from 'node:path';",
  'const require = __bundleCreateRequire(import.meta.url);',
  'const __filename = __bundleFileURLToPath(import.meta.url);',
  'const __dirname = __bundleDirname(__filename);',
].join(' ');

/** Prefer packages' ES module builds: they tree-shake better than their CommonJS builds. */
export const MAIN_FIELDS = ['module', 'main'];

/**
 * Optional dependencies nothing calls, left out of the bundles: minipass-fetch (under
 * npm-registry-fetch, in the scanner) loads `iconv-lite` (5.x) or `encoding` (4.x) inside a
 * try/catch, for `textConverted()` only, which npm-registry-fetch never calls. Bundled they are
 * ≈ 480 KB of the scanner's bundle; left out, the `require` fails and is caught at load.
 */
export const UNUSED_OPTIONAL_MODULES: readonly string[] = ['iconv-lite', 'encoding'];

/**
 * Left to the runtime: only the unused optional modules above. Everything else, the AWS SDK
 * included, is bundled at the version the project pins.
 */
export const EXTERNAL_MODULES: readonly string[] = [...UNUSED_OPTIONAL_MODULES];

/**
 * The SDK's default credential chain, resolved to its environment-variable link, which is where
 * Lambda puts a function's credentials (lambdas/shared/aws/env-credentials.ts).
 */
export const CREDENTIALS_ALIAS: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': join(PROJECT_ROOT, 'lambdas', 'shared', 'aws', 'env-credentials.ts'),
};

/** File name esbuild writes for ESM output, as NodejsFunction names it. */
export const BUNDLE_FILE = 'index.mjs';

/** The settings for `NodejsFunction`'s `bundling` property. */
export function lambdaBundlingOptions(): BundlingOptions {
  return {
    format: OutputFormat.ESM,
    target: BUNDLE_TARGET,
    mainFields: MAIN_FIELDS,
    banner: ESM_BANNER,
    minify: true,
    sourceMap: true,
    sourceMapMode: SourceMapMode.DEFAULT,
    sourcesContent: false,
    externalModules: [...EXTERNAL_MODULES],
    bundleAwsSDK: true,
    esbuildArgs: { '--alias': Object.entries(CREDENTIALS_ALIAS).map(([from, to]) => `${from}=${to}`) },
    logLevel: LogLevel.WARNING,
  };
}

/** The same settings for esbuild's JavaScript API (bench/bundles.ts). */
export function esbuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLE_TARGET,
    mainFields: MAIN_FIELDS,
    banner: { js: ESM_BANNER },
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    external: [...EXTERNAL_MODULES],
    alias: { ...CREDENTIALS_ALIAS },
    metafile: true,
    logLevel: 'warning',
  };
}
