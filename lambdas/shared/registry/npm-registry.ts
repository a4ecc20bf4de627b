/**
 * Registry access through npm's own client (npm-registry-fetch): its default registry, or
 * the `NPM_REGISTRY_URL` override; timeouts and retries with backoff; tarball integrity
 * checked against the packument's `dist.integrity`. No registry host name is written here.
 */
import npmFetch from 'npm-registry-fetch';
import semver from 'semver';
import ssri from 'ssri';

export class RegistryNotFoundError extends Error {
  override readonly name = 'RegistryNotFoundError';
}

/** The registry's data for a version is unusable (no tarball, no checksum): retrying cannot help. */
export class RegistryDataError extends Error {
  override readonly name = 'RegistryDataError';
}

export class TarballTooLargeError extends Error {
  override readonly name = 'TarballTooLargeError';
}

export interface RegistryOptions {
  /** Registry base URL; undefined uses npm-registry-fetch's default. */
  readonly registry?: string;
  readonly timeoutMs?: number;
  readonly retries?: number;
  /** Compressed tarball size limit in bytes. */
  readonly maxTarballBytes?: number;
}

export interface Packument {
  readonly name: string;
  readonly 'dist-tags'?: Record<string, string>;
  readonly versions?: Record<string, PackumentVersion>;
  readonly time?: Record<string, string>;
  readonly maintainers?: ReadonlyArray<{ name?: string; email?: string }>;
}

export interface PackumentVersion {
  readonly name: string;
  readonly version: string;
  readonly deprecated?: string;
  readonly _npmUser?: { name?: string; email?: string; trustedPublisher?: unknown };
  readonly dist?: {
    readonly tarball?: string;
    readonly integrity?: string;
    readonly shasum?: string;
    readonly attestations?: { url?: string; provenance?: { predicateType?: string } };
  };
  readonly [key: string]: unknown;
}

const DEFAULTS = { timeoutMs: 30_000, retries: 3, maxTarballBytes: 50 * 1024 * 1024 } as const;

export class NpmRegistry {
  private readonly opts: Required<Omit<RegistryOptions, 'registry'>> & Pick<RegistryOptions, 'registry'>;

  constructor(options: RegistryOptions = {}) {
    this.opts = { ...DEFAULTS, ...options };
  }

  private fetchOptions(extra: Record<string, unknown> = {}): npmFetch.Options {
    return {
      ...(this.opts.registry !== undefined ? { registry: this.opts.registry } : {}),
      timeout: this.opts.timeoutMs,
      retry: { retries: this.opts.retries, factor: 2, minTimeout: 250, maxTimeout: 4_000, randomize: true },
      // The full document: it carries publish times, maintainers and provenance.
      headers: { accept: 'application/json' },
      ...extra,
    } as npmFetch.Options;
  }

  async packument(name: string): Promise<Packument> {
    try {
      return (await npmFetch.json(
        `/${name.replace('/', '%2f')}`,
        this.fetchOptions(),
      )) as unknown as Packument;
    } catch (error) {
      if (isNotFound(error))
        throw new RegistryNotFoundError(`Package '${name}' does not exist in the registry`);
      throw error;
    }
  }

  /** Resolves an exact version or a dist-tag (latest when omitted) against a packument. */
  resolveVersion(packument: Packument, spec: string | undefined): PackumentVersion {
    const wanted = spec ?? 'latest';
    const exact = semver.valid(wanted);
    const version = exact ?? packument['dist-tags']?.[wanted];
    const found = version === undefined ? undefined : packument.versions?.[version];
    if (!found) {
      throw new RegistryNotFoundError(
        exact
          ? `Version '${exact}' of '${packument.name}' does not exist in the registry`
          : `Package '${packument.name}' has no dist-tag '${wanted}'`,
      );
    }
    return found;
  }

  /** Downloads the version's tarball, verifying `dist.integrity` (or the legacy shasum). */
  async tarball(version: PackumentVersion): Promise<Buffer> {
    const url = version.dist?.tarball;
    if (!url)
      throw new RegistryDataError(`${version.name}@${version.version} has no tarball in its packument`);
    const integrity =
      version.dist?.integrity ??
      (version.dist?.shasum ? `sha1-${hexToBase64(version.dist.shasum)}` : undefined);
    let response: Awaited<ReturnType<typeof npmFetch>>;
    try {
      // Integrity is checked below on the whole body: npm-registry-fetch's own check breaks its retries.
      response = await npmFetch(url, this.fetchOptions({ headers: { accept: '*/*' } }));
    } catch (error) {
      if (isNotFound(error))
        throw new RegistryNotFoundError(`Tarball of ${version.name}@${version.version} is missing`);
      throw error;
    }
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > this.opts.maxTarballBytes) {
      throw new TarballTooLargeError(
        `Tarball is ${declared} bytes; the limit is ${this.opts.maxTarballBytes}`,
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const body = response.body as unknown as NodeJS.ReadableStream & { destroy?: () => void };
    const limit = this.opts.maxTarballBytes;
    await new Promise<void>((resolve, reject) => {
      body.on('error', reject);
      body.on('end', resolve);
      body.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          reject(new TarballTooLargeError(`Tarball exceeds the limit of ${limit} bytes`));
          body.destroy?.();
          return;
        }
        chunks.push(chunk);
      });
    });
    const data = Buffer.concat(chunks);
    if (integrity === undefined) {
      throw new RegistryDataError(`${version.name}@${version.version} publishes no integrity checksum`);
    }
    if (!ssri.checkData(data, integrity)) {
      throw Object.assign(new Error(`Integrity check failed for ${version.name}@${version.version}`), {
        code: 'EINTEGRITY',
      });
    }
    return data;
  }
}

/** The version carries a provenance attestation or was published by a trusted publisher (built and signed in CI). */
export function hasProvenance(version: PackumentVersion): boolean {
  return Boolean(version.dist?.attestations?.provenance) || Boolean(version._npmUser?.trustedPublisher);
}

function isNotFound(error: unknown): boolean {
  const e = error as { statusCode?: number; code?: string };
  return e.statusCode === 404 || e.code === 'E404';
}

function hexToBase64(hex: string): string {
  return Buffer.from(hex, 'hex').toString('base64');
}
