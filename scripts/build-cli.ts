/**
 * `npm run build:cli`: bundles the command-line client into one ES module, dist/pkgscan.mjs, that
 * runs on Node 20 with nothing installed (`node pkgscan.mjs`). Every dependency is inlined;
 * CommonJS ones get a `require` made with createRequire, which the bundle needs for Node's own
 * modules. Prints the file's size and its largest packages.
 */
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const CLI_BUNDLE = path.join(root, 'dist', 'pkgscan.mjs');

export async function buildCli(opts: { quiet?: boolean; outfile?: string } = {}): Promise<string> {
  const outfile = opts.outfile ?? CLI_BUNDLE;
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  mkdirSync(path.dirname(outfile), { recursive: true });
  const result = await build({
    entryPoints: [path.join(root, 'cli', 'bin.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    legalComments: 'eof',
    metafile: true,
    // minipass-fetch loads iconv-lite only for textConverted(), in a try/catch; npm's registry
    // answers are UTF-8 JSON, so leaving it out saves half a megabyte.
    external: ['iconv-lite'],
    logLevel: opts.quiet ? 'error' : 'warning',
    define: { PKGSCAN_VERSION: JSON.stringify(pkg.version) },
    banner: {
      js: [
        '#!/usr/bin/env node',
        `// pkgscan ${pkg.version}: checks npm dependencies against the pkgscan API. Built by npm run build:cli.`,
        "import { createRequire as __pkgscanRequire } from 'node:module';",
        "import { fileURLToPath as __pkgscanPath } from 'node:url';",
        "import { dirname as __pkgscanDirname } from 'node:path';",
        'const require = __pkgscanRequire(import.meta.url);',
        // Bundled CommonJS code (the yarn lockfile parser) reads these module-scope names.
        'const __filename = __pkgscanPath(import.meta.url);',
        'const __dirname = __pkgscanDirname(__filename);',
      ].join('\n'),
    },
  });
  chmodSync(outfile, 0o755);
  if (!opts.quiet) {
    const output = Object.values(result.metafile.outputs)[0]!;
    const byPackage = new Map<string, number>();
    for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
      const key = m ? m[1]! : '(pkgscan)';
      byPackage.set(key, (byPackage.get(key) ?? 0) + bytesInOutput);
    }
    const largest = [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(`${path.relative(root, outfile)}: ${(output.bytes / 1024).toFixed(0)} KB`);
    for (const [name, bytes] of largest) console.log(`  ${name.padEnd(34)} ${(bytes / 1024).toFixed(0)} KB`);
  }
  return outfile;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  buildCli({ quiet: process.argv.includes('--quiet') }).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
