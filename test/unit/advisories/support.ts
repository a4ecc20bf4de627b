/** Shared helpers for the advisory tests: the repository copy of the OSV records. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseOsvRecord, type OsvRecord } from '../../../lambdas/advisories/osv';

export const OSV_NPM_DIR = join(__dirname, '../../../data/advisories/osv-npm');

export function loadSharedRecords(): OsvRecord[] {
  return readdirSync(OSV_NPM_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => parseOsvRecord(readFileSync(join(OSV_NPM_DIR, file), 'utf8')));
}
