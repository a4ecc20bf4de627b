import { NpmRegistry, RegistryNotFoundError } from '../../../lambdas/shared/registry/npm-registry';
import { startFakeRegistry, type FakeRegistry } from '../../support/fake-registry';

let registry: FakeRegistry;
let client: NpmRegistry;

beforeAll(async () => {
  registry = await startFakeRegistry();
  client = new NpmRegistry({
    registry: registry.url,
    retries: 2,
    timeoutMs: 5_000,
  });
});
afterAll(() => registry.close());

describe('NpmRegistry against a local registry', () => {
  it('resolves latest and exact versions and fetches the tarball with its integrity checked', async () => {
    const packument = await client.packument('left-pad');
    expect(client.resolveVersion(packument, undefined).version).toBe('1.3.0');
    const old = client.resolveVersion(packument, '1.2.0');
    const tgz = await client.tarball(old);
    expect(tgz.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('reads scoped packages', async () => {
    const packument = await client.packument('@tootallnate/once');
    expect(client.resolveVersion(packument, 'latest').name).toBe('@tootallnate/once');
  });

  it('retries a 500 and then succeeds', async () => {
    registry.failNext('/is-number', 500, 1);
    const before = registry.requests.length;
    await expect(client.packument('is-number')).resolves.toMatchObject({ name: 'is-number' });
    expect(registry.requests.slice(before).filter((r) => r === 'GET /is-number')).toHaveLength(2);
  });

  it('reports unknown packages, versions and tags as not found', async () => {
    await expect(client.packument('no-such-package')).rejects.toBeInstanceOf(RegistryNotFoundError);
    const packument = await client.packument('left-pad');
    expect(() => client.resolveVersion(packument, '9.9.9')).toThrow(RegistryNotFoundError);
    expect(() => client.resolveVersion(packument, 'beta')).toThrow(/no dist-tag 'beta'/);
  });

  it('rejects a tarball whose bytes do not match the published integrity', async () => {
    const packument = await client.packument('left-pad');
    const version = client.resolveVersion(packument, '1.3.0');
    const forged = {
      ...version,
      dist: { ...version.dist, integrity: 'sha512-' + Buffer.alloc(64).toString('base64') },
    };
    await expect(client.tarball(forged)).rejects.toMatchObject({ code: 'EINTEGRITY' });
  });
});
