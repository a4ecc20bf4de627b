/**
 * Seconds until a newly queued scan completes: the median of recent real scan durations,
 * times the number of rounds the scanners need to work through the queue ahead of it.
 */
export const FALLBACK_SCAN_SECONDS = 10;

export function estimateSeconds(
  recentDurationsMs: readonly number[],
  queueDepth: number,
  concurrency: number,
): number {
  const perScan = recentDurationsMs.length > 0 ? median(recentDurationsMs) / 1000 : FALLBACK_SCAN_SECONDS;
  const rounds = 1 + Math.floor(Math.max(0, queueDepth) / Math.max(1, concurrency));
  return Math.max(1, Math.ceil(perScan * rounds));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
