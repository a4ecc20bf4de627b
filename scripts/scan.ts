/**
 * `npm run scan -- <file.tgz | directory>`: analyses a package and prints one JSON object on
 * stdout with the field names of `PackageResponse` (plus `evidence`, `skipped_files`,
 * `limits_hit` and `stats`). Diagnostics go to stderr.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { analyzeDirectory, analyzeTarball, type AnalysisResult } from '../src/engine/index';

export function toResponseShape(r: AnalysisResult): Record<string, unknown> {
  return {
    name: r.name,
    version: r.version,
    registry: 'npm',
    risk_level: r.risk_level,
    risk_reasons: r.risk_reasons,
    install_scripts: r.install_scripts,
    agentic_threats: r.agentic_threats,
    capabilities: r.capabilities,
    docs_md: r.docs_md,
    evidence: r.evidence,
    skipped_files: r.skipped_files,
    limits_hit: r.limits_hit,
    stats: r.stats,
  };
}

async function main(): Promise<number> {
  const target = process.argv[2];
  if (!target) {
    process.stderr.write('usage: npm run scan -- <file.tgz | directory>\n');
    return 2;
  }
  const st = await stat(target).catch(() => undefined);
  if (!st) {
    process.stderr.write(`scan: ${target}: no such file or directory\n`);
    return 2;
  }
  const result = st.isDirectory()
    ? await analyzeDirectory(target)
    : await analyzeTarball(createReadStream(target));
  process.stderr.write(
    `scan: ${result.name || '(unnamed)'}@${result.version || '?'}: ${result.risk_level}, ${result.agentic_threats.length} threats, ` +
      `${result.stats.files} files, ${result.stats.js_bytes} JS bytes in ${result.stats.total_ms} ms\n`,
  );
  process.stdout.write(`${JSON.stringify(toResponseShape(result), null, 2)}\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`scan: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
