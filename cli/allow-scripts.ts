/**
 * `pkgscan allow-scripts [lockfile]`: which packages of a lockfile have install scripts, and
 * whether each needs them (cli/script-advice.ts), with the commands that record the answer for
 * npm (`npm install-scripts approve|deny`, the `allowScripts` field of package.json) and pnpm
 * (`onlyBuiltDependencies`). One answer per package name (npm's approvals are by name): when
 * versions of a name disagree, the most cautious wins (deny, review, allow, skip). Names that are
 * not valid npm names (a lockfile is attacker text) are listed but never put into a command.
 * Exit 1 when a package's scripts must be denied or a spec does not exist, else 0.
 */
import { packageNameProblem } from '../src/contract/names';
import { EXIT } from './errors';
import { lookupPackages, refId } from './lookup';
import { lookupOptions, mergePackages, readInputs, type Session } from './main';
import { visible } from './report/escape';
import { renderNotFound, COLOURS, PLAIN } from './report/table';
import { scriptAdvice, type ScriptAdvice, type ScriptRecommendation } from './script-advice';

interface Row extends ScriptAdvice {
  readonly name: string;
  readonly version: string;
}

/** Most cautious first. */
const ORDER: readonly ScriptRecommendation[] = ['deny', 'review', 'allow', 'skip'];

export async function runAllowScripts(session: Session, args: readonly string[]): Promise<number> {
  const { settings, ctx } = session;
  const inputs = await readInputs(session, args);
  const notFound = inputs.flatMap((i) => i.notFound ?? []);
  const packages = mergePackages(inputs);
  const lookups = await lookupPackages(session.client, packages, lookupOptions(session));
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
  // One answer per name: the first row of a name is its most cautious.
  const byName = new Map<string, ScriptRecommendation>();
  for (const r of rows) if (!byName.has(r.name)) byName.set(r.name, r.recommendation);
  const invalid = [...byName.keys()].filter((n) => packageNameProblem(n) !== undefined);
  const names = (want: ScriptRecommendation[]) =>
    [...byName]
      .filter(([n, r]) => want.includes(r) && !invalid.includes(n))
      .map(([n]) => n)
      .sort();
  const approve = names(['allow']);
  const deny = names(['deny', 'skip']);
  const review = names(['review']);
  const code =
    rows.some((r) => r.recommendation === 'deny') || notFound.length > 0 ? EXIT.violation : EXIT.passed;

  if (settings.json) {
    ctx.stdout.write(
      `${JSON.stringify(
        {
          packages: rows,
          not_scanned: notScanned,
          not_found: notFound,
          invalid_names: invalid,
          npm: { approve, deny, review },
          pnpm: { onlyBuiltDependencies: approve },
        },
        null,
        2,
      )}\n`,
    );
    return code;
  }
  const source = inputs.map((i) => i.source).join(', ');
  const out: string[] = [
    `Install scripts in ${visible(source)}: ${rows.length} of ${packages.length - notScanned} scanned packages`,
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
  if (invalid.length > 0)
    out.push(
      `Not valid npm names, left out of the commands below: ${invalid.map((n) => visible(n)).join(', ')}`,
    );
  if (approve.length > 0 || deny.length > 0) {
    out.push('', 'npm (records the answers in package.json allowScripts):');
    if (approve.length > 0) out.push(`  npm install-scripts approve ${approve.join(' ')}`);
    if (deny.length > 0) out.push(`  npm install-scripts deny ${deny.join(' ')}`);
    if (review.length > 0) out.push(`  (to review before deciding: ${review.join(' ')})`);
    out.push('pnpm (package.json):', `  "pnpm": { "onlyBuiltDependencies": ${JSON.stringify(approve)} }`);
  }
  ctx.stdout.write(`${renderNotFound(notFound, settings.color ? COLOURS : PLAIN)}${out.join('\n')}\n`);
  return code;
}
