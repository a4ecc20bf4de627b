/**
 * Offline download counts: a compact, sorted table of the monthly download count of every npm
 * package, made once from the `download-counts` package (one 95 MB JSON object, 3.8 million
 * names; `JSON.parse` of it takes ≈ 10 s and ≈ 500 MB of heap) and read with a binary search
 * straight from the file, without loading it.
 *
 * File layout:
 *   line 1   `pkgscan-download-counts <SNAPSHOT_FORMAT>`
 *   line 2   JSON metadata (`SnapshotMeta`)
 *   u32 LE   number of blocks B
 *   B × u32  byte offset of each block in the body
 *   body     entries sorted by name (JavaScript string order), in blocks of `block_size`; each entry
 *            is varint(shared prefix bytes with the previous name of the block), varint(suffix
 *            length), suffix bytes (UTF-8), varint(monthly count). The first entry of a block
 *            shares nothing, so a block can be decoded on its own.
 *
 * Opening reads the header and the block offsets (≈ 0.5 MB); a lookup binary-searches the blocks'
 * first names (each read once from the file, then kept) and reads one block of at most
 * `block_size` entries.
 * Figures in docs/downloads.md.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Version of the file layout: part of the cache file's name, so a new layout is rebuilt. */
export const SNAPSHOT_FORMAT = 2;
const MAGIC = `pkgscan-download-counts ${SNAPSHOT_FORMAT}`;
const BLOCK_SIZE = 32;

export interface SnapshotMeta {
  /** Where the counts come from (the package name). */
  readonly source: string;
  /** That package's version. */
  readonly version: string;
  /** The day the counts were taken (end of the counted month), YYYY-MM-DD. */
  readonly as_of: string;
  /** Days the counts cover. */
  readonly period_days: number;
  readonly entries: number;
  readonly block_size: number;
  /** Length of the body: a shorter file was cut short. */
  readonly body_bytes: number;
}

export interface SnapshotCount {
  /** Downloads over `period_days` (a month). */
  readonly period: number;
  /** Scaled to a week, rounded, at least 1 when the period had any. */
  readonly weekly: number;
}

/** Encodes (name, count) pairs, sorted here, into the snapshot file's content. */
export function encodeSnapshot(
  pairs: Iterable<readonly [string, number]>,
  meta: Omit<SnapshotMeta, 'entries' | 'block_size' | 'body_bytes'>,
): Buffer {
  const sorted = [...pairs].filter(([, count]) => Number.isSafeInteger(count) && count >= 0);
  sorted.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const body = new ByteWriter();
  const offsets: number[] = [];
  let previous: Buffer = Buffer.alloc(0);
  let lastName: string | undefined;
  let entries = 0;
  for (const [name, count] of sorted) {
    if (name === lastName) continue;
    lastName = name;
    const bytes = Buffer.from(name, 'utf8');
    let shared = 0;
    if (entries % BLOCK_SIZE === 0) {
      offsets.push(body.length);
    } else {
      const max = Math.min(bytes.length, previous.length);
      while (shared < max && bytes[shared] === previous[shared]) shared++;
    }
    body.varint(shared);
    body.varint(bytes.length - shared);
    body.bytes(bytes.subarray(shared));
    body.varint(count);
    previous = bytes;
    entries++;
  }
  const bodyBytes = body.toBuffer();
  const head = Buffer.from(
    `${MAGIC}\n${JSON.stringify({ ...meta, entries, block_size: BLOCK_SIZE, body_bytes: bodyBytes.length } satisfies SnapshotMeta)}\n`,
  );
  const table = Buffer.alloc(4 + 4 * offsets.length);
  table.writeUInt32LE(offsets.length, 0);
  offsets.forEach((offset, i) => table.writeUInt32LE(offset, 4 + 4 * i));
  return Buffer.concat([head, table, bodyBytes]);
}

/** Reads byte ranges of a snapshot: from a buffer, or from an open file. */
interface Source {
  readonly size: number;
  read(offset: number, length: number): Buffer;
  close(): void;
}

/** Longest first-name probe: npm names are at most 214 characters (legacy ones a little more). */
const PROBE_BYTES = 1024;
const HEADER_PROBE = 64 * 1024;

export class DownloadSnapshot {
  /** First names of the blocks a search has read (at most one per block, ≈ 3 MB in all). */
  private readonly firstNames: Array<string | undefined> = [];

  private constructor(
    readonly meta: SnapshotMeta,
    private readonly source: Source,
    private readonly bodyStart: number,
    private readonly offsets: Uint32Array,
  ) {}

  /** Opens a snapshot file; lookups read from it (close() releases it). */
  static open(path: string): DownloadSnapshot {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      return DownloadSnapshot.from({
        size,
        read(offset, length) {
          const n = Math.max(0, Math.min(length, size - offset));
          const out = Buffer.alloc(n);
          let got = 0;
          while (got < n) {
            const r = readSync(fd, out, got, n - got, offset + got);
            if (r === 0) break;
            got += r;
          }
          return out.subarray(0, got);
        },
        close: () => closeSync(fd),
      });
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** A snapshot held in memory (tests, small tables). */
  static fromBuffer(data: Buffer): DownloadSnapshot {
    return DownloadSnapshot.from({
      size: data.length,
      read: (offset, length) => data.subarray(offset, Math.min(data.length, offset + length)),
      close: () => undefined,
    });
  }

  private static from(source: Source): DownloadSnapshot {
    const head = source.read(0, HEADER_PROBE);
    const firstLine = head.indexOf(0x0a);
    const secondLine = firstLine < 0 ? -1 : head.indexOf(0x0a, firstLine + 1);
    if (firstLine < 0 || secondLine < 0 || head.toString('utf8', 0, firstLine) !== MAGIC) {
      throw new Error('Not a download-count snapshot (bad header)');
    }
    const meta = JSON.parse(head.toString('utf8', firstLine + 1, secondLine)) as SnapshotMeta;
    const tableAt = secondLine + 1;
    const blocks = source.read(tableAt, 4);
    if (blocks.length < 4) throw new Error('Download-count snapshot is truncated');
    const count = blocks.readUInt32LE(0);
    const table = source.read(tableAt + 4, 4 * count);
    if (table.length < 4 * count) throw new Error('Download-count snapshot is truncated');
    const offsets = new Uint32Array(count);
    for (let i = 0; i < count; i++) offsets[i] = table.readUInt32LE(4 * i);
    const bodyStart = tableAt + 4 + 4 * count;
    if (source.size - bodyStart !== meta.body_bytes) throw new Error('Download-count snapshot is truncated');
    return new DownloadSnapshot(meta, source, bodyStart, offsets);
  }

  close(): void {
    this.source.close();
  }

  /** The package's counts, or undefined when the snapshot does not list it. */
  lookup(name: string): SnapshotCount | undefined {
    // The last block whose first name is <= name.
    let lo = 0;
    let hi = this.offsets.length - 1;
    if (hi < 0) return undefined;
    if (this.firstName(0) > name) return undefined;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.firstName(mid) <= name) lo = mid;
      else hi = mid - 1;
    }
    const start = this.bodyStart + this.offsets[lo]!;
    const end = lo + 1 < this.offsets.length ? this.bodyStart + this.offsets[lo + 1]! : this.source.size;
    const reader = new ByteReader(this.source.read(start, end - start), 0);
    let previous: Buffer = Buffer.alloc(0);
    while (reader.remaining > 0) {
      const shared = reader.varint();
      const suffix = reader.bytes(reader.varint());
      const count = reader.varint();
      const bytes = shared === 0 ? suffix : Buffer.concat([previous.subarray(0, shared), suffix]);
      const current = bytes.toString('utf8');
      if (current === name) return { period: count, weekly: this.toWeekly(count) };
      if (current > name) return undefined;
      previous = bytes;
    }
    return undefined;
  }

  private firstName(block: number): string {
    const cached = this.firstNames[block];
    if (cached !== undefined) return cached;
    const reader = new ByteReader(this.source.read(this.bodyStart + this.offsets[block]!, PROBE_BYTES), 0);
    reader.varint();
    const name = reader.bytes(reader.varint()).toString('utf8');
    this.firstNames[block] = name;
    return name;
  }

  private toWeekly(count: number): number {
    if (count === 0) return 0;
    return Math.max(1, Math.round((count * 7) / this.meta.period_days));
  }
}

class ByteWriter {
  private chunks: Buffer[] = [];
  private current = Buffer.alloc(1 << 20);
  private used = 0;
  private flushed = 0;

  get length(): number {
    return this.flushed + this.used;
  }

  varint(value: number): void {
    let v = value;
    while (v >= 0x80) {
      this.byte((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.byte(v);
  }

  bytes(data: Buffer): void {
    for (const b of data) this.byte(b);
  }

  toBuffer(): Buffer {
    return Buffer.concat([...this.chunks, this.current.subarray(0, this.used)]);
  }

  private byte(b: number): void {
    if (this.used === this.current.length) {
      this.chunks.push(this.current);
      this.flushed += this.used;
      this.current = Buffer.alloc(1 << 20);
      this.used = 0;
    }
    this.current[this.used++] = b;
  }
}

class ByteReader {
  constructor(
    private readonly data: Buffer,
    public at: number,
  ) {}

  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      const b = this.data[this.at++];
      if (b === undefined) throw new Error('Download-count snapshot is truncated');
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
    }
    throw new Error('Download-count snapshot has a malformed number');
  }

  get remaining(): number {
    return this.data.length - this.at;
  }

  bytes(n: number): Buffer {
    if (this.at + n > this.data.length) throw new Error('Download-count snapshot is truncated');
    const out = this.data.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
}
