/**
 * The write protocol of scan results: version items, dist-tags, and the revision-marked latest
 * row whose rank moves in the list and search postings. The state machine, the conditional
 * writes and what a crash after each step leaves are written out in docs/storage.md
 * ("Write protocol"); test/unit/store/write-interleavings.test.ts runs two writers through every
 * interleaving of their calls and a crash after each step.
 */
import { PutCommand, TransactWriteCommand, UpdateCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import semverGt from 'semver/functions/gt';
import { toListItem } from '../../../src/contract/records';
import type { PackageResponse } from '../../../src/contract/schemas';
import { ignoreConditionFailure, isConditionFailure } from './batch';
import { LATEST_SK, LIST_PARTITION, META_KEY, packageKey, rankOf, tagSk, trigrams, versionSk } from './keys';
import { encodeBasis, encodeDoc, type PackageTable, type ScanBasis } from './package-table';
import type { SearchIndex } from './search-index';

/** Posting bookkeeping on a latest row (see `settle`). */
export interface Markers {
  readonly rev: number;
  readonly lsk: string;
  /** Rank whose postings may not be written yet. */
  readonly pending?: string;
  /** Rank whose postings must be removed. */
  readonly cleanup?: string;
}

type LatestMarkers = Markers & { version: string; scanned_at?: string };

/** Attempts at the latest row's conditional write before the error is thrown to the caller. */
export const MAX_WRITE_ATTEMPTS = 5;
/** Rounds of an overtaken writer's reconciliation (each needs the row to have moved on again). */
const MAX_RECONCILE_ROUNDS = 10;

export class PackageWrites {
  constructor(
    private readonly table: PackageTable,
    private readonly index: SearchIndex,
  ) {}

  /**
   * Stores one scan result. Safe to repeat and to resume after a crash at any step:
   * 1. the version item and dist-tags (idempotent puts);
   * 2. if this version is the package's highest: the latest row (optimistic concurrency on
   *    `rev`) together with the package count in one transaction, recording the new rank as
   *    `pending` and the old one as `cleanup`;
   * 3. the posting lists: the new rank added, the old removed, then both markers cleared.
   * Any later write of the package finishes step 3 first if it finds markers left by a crash.
   */
  async putScan(
    result: PackageResponse,
    opts: { distTags?: readonly string[]; basis?: ScanBasis } = {},
  ): Promise<void> {
    const { name, version } = result;
    const docBytes = encodeDoc(result);
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...packageKey(name, versionSk(version)),
          version,
          scanned_at: result.scanned_at,
          doc: docBytes,
          ...(opts.basis ? { basis: encodeBasis(opts.basis) } : {}),
        },
      }),
    );
    await this.promoteIfLatest(result, docBytes, opts.distTags ?? []);
  }

  /**
   * Replaces a stored version's result in place (same name, version and downloads; for example
   * new CVEs and risk after an advisory sync), and the latest row when it is that version.
   */
  async replaceResult(result: PackageResponse): Promise<boolean> {
    const { name, version } = result;
    const docBytes = encodeDoc(result);
    // Only the scan the caller read: a rescan in between is newer and wins.
    const sameScan = {
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(scanned_at) OR scanned_at = :s)',
      ExpressionAttributeValues: { ':doc': docBytes, ':s': result.scanned_at },
    };
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: packageKey(name, versionSk(version)),
          UpdateExpression: 'SET doc = :doc',
          ...sameScan,
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: packageKey(name, LATEST_SK),
          UpdateExpression: 'SET doc = :doc, #item = :item',
          ConditionExpression: `version = :version AND ${sameScan.ConditionExpression}`,
          ExpressionAttributeNames: { '#item': 'item' },
          ExpressionAttributeValues: {
            ...sameScan.ExpressionAttributeValues,
            ':item': toListItem(result),
            ':version': version,
          },
        }),
      );
    } catch (error) {
      // Not the latest version (or no latest row): only the version item changes.
      ignoreConditionFailure(error);
    }
    return true;
  }

  /**
   * Replaces a stored version's result whose download count may have changed (the downloads
   * refresh), without a rescan: the version item, and when it is the latest version, the latest
   * row with its list position. The move follows the write protocol of `putScan` (rank recorded
   * as `pending`, the old one as `cleanup`, postings settled after), so the list order and the
   * total stay exact while it runs. Only the scan the caller read is replaced (same
   * `scanned_at`): false when the version was rescanned meanwhile.
   */
  async refreshResult(result: PackageResponse): Promise<boolean> {
    if (!(await this.replaceVersionItem(result))) return false;
    const { name, version } = result;
    const docBytes = encodeDoc(result);
    for (let attempt = 1; ; attempt++) {
      const latest = await this.latestMarkers(name);
      // Not the latest version, or rescanned meanwhile (that newer scan carries its own count).
      if (!latest || latest.version !== version) return true;
      if (latest.scanned_at !== undefined && latest.scanned_at !== result.scanned_at) return true;
      if (latest.pending !== undefined || latest.cleanup !== undefined) await this.settle(name, latest);
      const rank = rankOf(result.weekly_downloads, name);
      const moved = latest.lsk !== rank;
      const markers: Markers = {
        rev: latest.rev + 1,
        lsk: rank,
        ...(moved ? { pending: rank, cleanup: latest.lsk } : {}),
      };
      try {
        await this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: packageKey(name, LATEST_SK),
            UpdateExpression: moved
              ? 'SET doc = :doc, #item = :item, lsk = :lsk, rev = :next, pending = :pending, cleanup = :cleanup'
              : 'SET doc = :doc, #item = :item, rev = :next',
            ConditionExpression:
              'rev = :rev AND version = :version AND (attribute_not_exists(scanned_at) OR scanned_at = :s)',
            ExpressionAttributeNames: { '#item': 'item' },
            ExpressionAttributeValues: {
              ':doc': docBytes,
              ':item': toListItem(result),
              ':next': markers.rev,
              ':rev': latest.rev,
              ':version': version,
              ':s': result.scanned_at,
              ...(moved ? { ':lsk': rank, ':pending': rank, ':cleanup': latest.lsk } : {}),
            },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        if (attempt >= MAX_WRITE_ATTEMPTS) throw error;
        continue;
      }
      if (moved) await this.settle(name, markers);
      return true;
    }
  }

  /** The version item's doc, replaced only if it is still the scan the caller read. */
  private async replaceVersionItem(result: PackageResponse): Promise<boolean> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: packageKey(result.name, versionSk(result.version)),
          UpdateExpression: 'SET doc = :doc',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(scanned_at) OR scanned_at = :s)',
          ExpressionAttributeValues: { ':doc': encodeDoc(result), ':s': result.scanned_at },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Dist-tags, then the latest row, list row and postings when this version is the highest. */
  private async promoteIfLatest(
    result: PackageResponse,
    docBytes: Uint8Array,
    distTags: readonly string[],
  ): Promise<void> {
    const { name, version } = result;
    // A tag moves only forward in time: a slow scan of an older version cannot take it back.
    await Promise.all(
      distTags.map((tag) =>
        this.table.doc
          .send(
            new PutCommand({
              TableName: this.table.name,
              Item: { ...packageKey(name, tagSk(tag)), version, scanned_at: result.scanned_at },
              ConditionExpression: 'attribute_not_exists(scanned_at) OR scanned_at <= :s',
              ExpressionAttributeValues: { ':s': result.scanned_at },
            }),
          )
          .catch(ignoreConditionFailure),
      ),
    );

    for (let attempt = 1; ; attempt++) {
      const latest = await this.latestMarkers(name);
      if (latest && (latest.pending !== undefined || latest.cleanup !== undefined)) {
        await this.settle(name, latest);
      }
      if (latest && semverGt(latest.version, version)) return;

      const rank = rankOf(result.weekly_downloads, name);
      const moved = !latest || latest.lsk !== rank;
      const markers: Markers = {
        rev: (latest?.rev ?? 0) + 1,
        lsk: rank,
        ...(moved ? { pending: rank } : {}),
        ...(latest && moved ? { cleanup: latest.lsk } : {}),
      };
      try {
        await this.table.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: this.table.name,
                  Item: {
                    ...packageKey(name, LATEST_SK),
                    version,
                    scanned_at: result.scanned_at,
                    doc: docBytes,
                    item: toListItem(result),
                    lpk: LIST_PARTITION,
                    ...markers,
                  },
                  ConditionExpression: latest ? 'rev = :rev' : 'attribute_not_exists(pk)',
                  ...(latest ? { ExpressionAttributeValues: { ':rev': latest.rev } } : {}),
                },
              },
              ...(latest
                ? []
                : [
                    {
                      Update: {
                        TableName: this.table.name,
                        Key: META_KEY,
                        UpdateExpression: 'ADD n :one',
                        ExpressionAttributeValues: { ':one': 1 },
                      },
                    },
                  ]),
            ],
          }),
        );
      } catch (error) {
        if (error instanceof TransactionCanceledException && attempt < MAX_WRITE_ATTEMPTS) continue;
        throw error;
      }
      if (!latest) await this.index.addGramCounts(new Map(trigrams(name).map((g) => [g, 1])));
      await this.settle(name, markers);
      return;
    }
  }

  private async latestMarkers(name: string): Promise<LatestMarkers | undefined> {
    const out = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.name,
        Key: packageKey(name, LATEST_SK),
        ConsistentRead: true,
        ProjectionExpression: 'version, lsk, rev, pending, cleanup, scanned_at',
      }),
    );
    return out.Item as LatestMarkers | undefined;
  }

  /**
   * Brings the posting lists in line with a committed latest row: adds its `pending` rank,
   * removes the `cleanup` rank, then clears both markers if the row is unchanged. Only the
   * winner of a row's revision (or a later writer finishing its work) gets here, so losers of a
   * race never leave postings behind; a writer overtaken while settling removes its own rank
   * again unless the newer row kept it. Every step is idempotent.
   */
  private async settle(name: string, markers: Markers): Promise<void> {
    const { pending, cleanup } = markers;
    if (pending !== undefined) await this.index.addRank(name, pending);
    if (cleanup !== undefined && cleanup !== pending) await this.index.removeRank(name, cleanup);
    const now = await this.latestMarkers(name);
    if (now?.rev !== markers.rev) {
      await this.reconcile(name, markers, now);
      return;
    }
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: packageKey(name, LATEST_SK),
          UpdateExpression: 'REMOVE pending, cleanup',
          ConditionExpression: 'rev = :rev',
          ExpressionAttributeValues: { ':rev': markers.rev },
        }),
      );
    } catch (error) {
      // A newer write took over the row; it carries its own markers.
      ignoreConditionFailure(error);
    }
  }

  /**
   * A writer overtaken while settling (the row's `rev` moved on) makes what it did to the posting
   * lists agree with the newer row: each rank it touched (its `pending`, added, and `cleanup`,
   * removed) is added back if it is the newer row's rank and removed otherwise. The newer row's
   * writer may have added or removed the same ranks before or after, so this is repeated until a
   * read of the row shows no further change: every change this writer makes then happened
   * before a row whose own writer settles from there.
   */
  private async reconcile(name: string, markers: Markers, seen: LatestMarkers | undefined): Promise<void> {
    const touched = [markers.pending, markers.cleanup].filter((rank): rank is string => rank !== undefined);
    let now = seen;
    for (let round = 1; round <= MAX_RECONCILE_ROUNDS; round++) {
      for (const rank of new Set(touched)) {
        if (rank === now?.lsk) await this.index.addRank(name, rank);
        else await this.index.removeRank(name, rank);
      }
      const after = await this.latestMarkers(name);
      if (after?.rev === now?.rev) return;
      now = after;
    }
  }
}
