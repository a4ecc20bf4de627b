/**
 * Deliveries of a scan message before it moves to the dead-letter queue: the stack's redrive
 * policy (lib/constructs/scan-pipeline.ts), the local queue's (local/stand-ins.ts), and what the
 * scanner assumes when its function sets no `MAX_RECEIVE_COUNT`.
 */
export const MAX_RECEIVE_COUNT = 3;
