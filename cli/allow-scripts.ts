/**
 * `pkgscan allow-scripts [lockfile]`: which packages of a lockfile have install scripts, and
 * whether each needs them (cli/script-advice.ts), with the commands that record the answer for
 * npm (`npm install-scripts approve|deny`, the `allowScripts` field of package.json) and pnpm
 * (`onlyBuiltDependencies`). Exit 1 when a package's scripts must be denied, else 0.
 */
import { refId, lookupPackages } from './lookup';
import { mergePackages, readInputs, type Session } from './main';
import { visible } from './report/escape';
import { scriptAdvice, type ScriptAdvice, type ScriptRecommendation } from './script-advice';
import { EXIT } from './errors';

interface Row extends ScriptAdvice {
  readonly name: string;
  readonly version: string;
}

const ORDER: readonly ScriptRecommendation[] = ['deny', 'allow', 'review', 'skip'];

export async function runAllowScripts(session: Session, args: readonly string[]): Promise<number> {
  const { settings, ctx } = session;
  const inputs = await readInputs(session, args);
  const packages = mergePackages(inputs);
  const lookups = await lookupPackages(session.client, packages, {
    scanMissing: settings.scanMissing,
    scanTimeoutMs: settings.scanTimeoutMs,
    pollIntervalMs: settings.pollIntervalMs,
    concurrency: settings.concurrency,
    progress: session.progress,
    ...(ctx.sleep ? { sleep: ctx.sleep } : {}),
  });
  const rows: Row[] = [];
  let notScanned = 0;
  for (const p of packages) {
    const l = lookups.get(refId(p));
    if (l?.status !== 'found') {
      notScanned++;
      continue;
    }
    const advice = scriptAdvice(l.result);
    if (advice) rows.push({ name: p.name, version: p.version, ...advice });
  }
  rows.sort(
    (a, b) =>
      ORDER.indexOf(a.recommendation) - ORDER.indexOf(b.recommendation) || a.name.localeCompare(b.name),
  );
  const names = (r: ScriptRecommendation) => [
    ...new Set(rows.filter((x) => x.recommendation === r).map((x) => x.name)),
  ];
  const approve = names('allow');
  const deny = [...names('deny'), ...names('skip')];

  if (settings.json) {
    ctx.stdout.write(
      `${JSON.stringify(
        {
          packages: rows,
          not_scanned: notScanned,
          npm: { approve, deny },
          pnpm: { onlyBuiltDependencies: approve },
        },
        null,
        2,
      )}\n`,
    );
  } else {
    const source = inputs.map((i) => i.source).join(', ');
    const out: string[] = [
      `Install scripts in ${source}: ${rows.length} of ${packages.length - notScanned} scanned packages`,
    ];
    const width = Math.min(40, Math.max(10, ...rows.map((r) => `${r.name}@${r.version}`.length)));
    for (const r of rows) {
      const hooks = r.scripts.map((s) => (s.command ? `${s.name}: ${s.command}` : s.name)).join('; ');
      out.push(
        `  ${r.recommendation.padEnd(6)}  ${visible(`${r.name}@${r.version}`).padEnd(width)}  ${visible(r.reason)}`,
      );
      out.push(`  ${''.padEnd(6)}  ${''.padEnd(width)}  ${visible(hooks.slice(0, 160))}`);
    }
    if (notScanned > 0)
      out.push(
        `${notScanned} package${notScanned === 1 ? ' is' : 's are'} not scanned, so their scripts are not judged (--scan-missing scans them first)`,
      );
    if (approve.length > 0 || deny.length > 0) {
      out.push('', 'npm (records the answers in package.json allowScripts):');
      if (approve.length > 0) out.push(`  npm install-scripts approve ${approve.map(visible).join(' ')}`);
      if (deny.length > 0) out.push(`  npm install-scripts deny ${deny.map(visible).join(' ')}`);
      out.push('pnpm (package.json):', `  "pnpm": { "onlyBuiltDependencies": ${JSON.stringify(approve)} }`);
    }
    ctx.stdout.write(`${out.join('\n')}\n`);
  }
  return rows.some((r) => r.recommendation === 'deny') ? EXIT.violation : EXIT.passed;
}
