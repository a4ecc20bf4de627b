/**
 * `npm run docs:rules`: writes the rule catalogue (src/engine/rules.ts) into
 * docs/analysis.md between its markers. The unit tests fail when the two differ.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RULE_TABLE_BEGIN, RULE_TABLE_END, renderRuleTable } from '../src/engine/rules';

async function main(): Promise<void> {
  const file = join(process.cwd(), 'docs/analysis.md');
  const doc = await readFile(file, 'utf8');
  const start = doc.indexOf(RULE_TABLE_BEGIN);
  const end = doc.indexOf(RULE_TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`docs/analysis.md has no ${RULE_TABLE_BEGIN} … ${RULE_TABLE_END} block`);
  const next = `${doc.slice(0, start + RULE_TABLE_BEGIN.length)}\n\n${renderRuleTable()}\n\n${doc.slice(end)}`;
  // Keep the file as prettier writes it, so `prettier --check` and the test agree.
  const prettier = await import('prettier');
  const formatted = await prettier.format(next, { ...(await prettier.resolveConfig(file)), filepath: file });
  if (formatted !== doc) await writeFile(file, formatted);
  process.stdout.write(`${formatted === doc ? 'unchanged' : 'updated'}: docs/analysis.md\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
