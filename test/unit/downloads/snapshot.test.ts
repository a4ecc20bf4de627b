import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DownloadSnapshot, encodeSnapshot } from '../../../lambdas/shared/downloads/snapshot';
import { asOfFromVersion, countPairs } from '../../../scripts/download-snapshot';

const META = { source: 'download-counts', version: '2.20260301.0', as_of: '2026-03-01', period_days: 28 };

/** Names that share long prefixes, scoped ones, non-ASCII ones, across several blocks. */
function pairs(): Array<[string, number]> {
  const out: Array<[string, number]> = [
    ['react', 351_327_975],
    ['react-dom', 300_000_000],
    ['@types/node', 1_033_889_329],
    ['left-pad', 5_532_379],
    ['zero-downloads', 0],
    ['café-ünïcode', 12],
    ['a', 86_931],
  ];
  for (let i = 0; i < 500; i++) out.push([`pkg-${String(i).padStart(4, '0')}`, i * 1_000]);
  return out;
}

describe('download-count snapshot', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'pkdl-')), 'table.pkdl');
  writeFileSync(file, encodeSnapshot(pairs(), META));

  it.each([
    ['from a file, without loading it', () => DownloadSnapshot.open(file)],
    ['from memory', () => DownloadSnapshot.fromBuffer(encodeSnapshot(pairs(), META))],
  ])('finds every name and scales the month to a week (%s)', (_, open) => {
    const snapshot = open();
    expect(snapshot.meta).toMatchObject({ ...META, entries: 507 });
    for (const [name, count] of pairs()) {
      expect(snapshot.lookup(name)?.period).toBe(count);
    }
    // 351,327,975 in 28 days is 87,831,994 a week; any downloads at all is at least 1 a week.
    expect(snapshot.lookup('react')).toEqual({ period: 351_327_975, weekly: 87_831_994 });
    expect(snapshot.lookup('café-ünïcode')?.weekly).toBe(3);
    expect(snapshot.lookup('zero-downloads')?.weekly).toBe(0);
    snapshot.close();
  });

  it('answers undefined for names it does not list, before, between and after its entries', () => {
    const snapshot = DownloadSnapshot.open(file);
    for (const name of ['', '0', 'pkg-0000x', 'pkg-05', 'reac', 'react-do', 'zzzz', '@types/nod', '~']) {
      expect(snapshot.lookup(name)).toBeUndefined();
    }
    snapshot.close();
  });

  it('refuses a file that is not a snapshot, and one cut short', () => {
    expect(() => DownloadSnapshot.fromBuffer(Buffer.from('{"react": 1}'))).toThrow(/bad header/);
    const whole = encodeSnapshot(pairs(), META);
    const header = whole.indexOf(0x0a, whole.indexOf(0x0a) + 1) + 1;
    expect(() => DownloadSnapshot.fromBuffer(whole.subarray(0, header + 6))).toThrow(/truncated/);
    expect(() => DownloadSnapshot.fromBuffer(whole.subarray(0, whole.length - 40))).toThrow(/truncated/);
  });

  it("reads the package's JSON text without JSON.parse of the whole object, escapes included", () => {
    const text = '{"zzz":3,"with\\"quote":7,"@scope/x":1234567890,"\\u00e9t\\u00e9":5}';
    expect([...countPairs(text)]).toEqual([
      ['zzz', 3],
      ['with"quote', 7],
      ['@scope/x', 1_234_567_890],
      ['été', 5],
    ]);
    expect(asOfFromVersion('2.20260301.0')).toBe('2026-03-01');
    expect(asOfFromVersion('1.0.0')).toBeUndefined();
  });
});
