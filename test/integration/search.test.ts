/** GET /v1/packages?q=: case-insensitive substring of the full name, with paging and totals. */
import { expectBody, expectError } from './support/contract';
import { scanRecord } from './support/factory';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;

const PACKAGES: ReadonlyArray<[name: string, weeklyDownloads: number]> = [
  ['react', 25_000_000],
  ['react-dom', 22_000_000],
  ['@types/react', 18_000_000],
  ['lodash', 50_000_000],
  ['vue', 5_000_000],
  ['@vue/reactivity', 4_000_000],
  ['preact', 2_000_000],
  ['JSONStream', 1_500_000],
  ['create-react-app', 150_000],
  ['@babel/core', 40_000_000],
  ['left-pad', 1_000_000],
  ['tractor', 1_200],
  ['exact-math', 1_200],
  ['reactive-lib', 800],
  ['is-even', 200_000],
];

/** The expected answer, computed the slow way. */
function matching(q: string): string[] {
  const needle = q.toLowerCase();
  return PACKAGES.filter(([name]) => name.toLowerCase().includes(needle))
    .sort(([a, da], [b, db]) => db - da || (a < b ? -1 : a > b ? 1 : 0))
    .map(([name]) => name);
}

beforeAll(async () => {
  api = await startTestApi();
  for (const [name, weeklyDownloads] of PACKAGES)
    await api.store.putScan(scanRecord(name, { weeklyDownloads }));
}, 120_000);
afterAll(async () => {
  await api?.stop();
});

async function search(
  query: string,
): Promise<{ names: string[]; total: number; limit: number; offset: number }> {
  const list = expectBody(await api.get(`/v1/packages?${query}`), 200, 'PackageList');
  return {
    names: list.packages.map((p) => p.name),
    total: list.total,
    limit: list.limit,
    offset: list.offset,
  };
}

describe('search', () => {
  it('finds a substring inside names (q=act finds react), ordered by downloads', async () => {
    const result = await search('q=act');
    expect(result.names).toContain('react');
    expect(result.names).toEqual(matching('act'));
    expect(result.total).toBe(matching('act').length);
    expect(result.names).toEqual([
      'react',
      'react-dom',
      '@types/react',
      '@vue/reactivity',
      'preact',
      'create-react-app',
      'exact-math',
      'tractor',
      'reactive-lib',
    ]);
  });

  it('ignores case in the query and in the names', async () => {
    expect((await search('q=ACT')).names).toEqual(matching('act'));
    expect((await search('q=React')).names).toEqual(matching('react'));
    expect((await search('q=jsonstream')).names).toEqual(['JSONStream']);
    expect((await search('q=STREAM')).names).toEqual(['JSONStream']);
  });

  it('matches the scope as part of the name', async () => {
    expect((await search('q=%40types')).names).toEqual(['@types/react']);
    expect((await search('q=types%2Fre')).names).toEqual(['@types/react']);
    expect((await search('q=%40vue%2Freact')).names).toEqual(['@vue/reactivity']);
    expect((await search('q=vue')).names).toEqual(matching('vue'));
  });

  it('pages with exact totals', async () => {
    const all = matching('act');
    const page = await search('q=act&limit=2&offset=2');
    expect(page).toEqual({ names: all.slice(2, 4), total: all.length, limit: 2, offset: 2 });
    const last = await search(`q=act&limit=5&offset=${all.length - 1}`);
    expect(last.names).toEqual(all.slice(-1));
    const past = await search('q=act&offset=50');
    expect(past).toEqual({ names: [], total: all.length, limit: 50, offset: 50 });
    expect((await search('q=act&limit=500')).limit).toBe(100);
  });

  it.each(['v', 're', 'e', '-', 'St', '@', '%2F'])('answers a short query (q=%s)', async (q) => {
    const expected = matching(decodeURIComponent(q));
    const result = await search(`q=${q}`);
    expect(result.names).toEqual(expected);
    expect(result.total).toBe(expected.length);
  });

  it('answers an exact full name and a query that matches nothing', async () => {
    expect((await search('q=left-pad')).names).toEqual(['left-pad']);
    expect(await search('q=zzzqqq')).toEqual({ names: [], total: 0, limit: 50, offset: 0 });
  });

  it('treats an empty q as a plain list', async () => {
    const result = await search('q=');
    expect(result.total).toBe(PACKAGES.length);
    expect(result.names).toEqual(matching(''));
  });

  it('accepts a query of 214 characters and refuses 215 with 400 {error}', async () => {
    expect((await search(`q=${'a'.repeat(214)}`)).total).toBe(0);
    expectError(await api.get(`/v1/packages?q=${'a'.repeat(215)}`), 400, /\bq\b/);
  });

  it('refuses a repeated q and bad paging parameters with 400 {error}', async () => {
    expectError(await api.get('/v1/packages?q=act&q=re'), 400, /\bq\b/);
    expectError(await api.get('/v1/packages?q=act&limit=abc'), 400, /limit/);
    expectError(await api.get('/v1/packages?q=act&offset=-3'), 400, /offset/);
  });
});
