import { flagEnv } from '../config';

const enabled = flagEnv('READ_STATS_HEADER');

/** `x-items-read` (DynamoDB items a request read), sent only where READ_STATS_HEADER=1 (local benchmarks). */
export function readStatsHeaders(itemsRead: number): Record<string, string> {
  return enabled ? { 'x-items-read': String(itemsRead) } : {};
}
