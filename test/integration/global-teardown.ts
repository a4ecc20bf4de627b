/** Stops the stand-ins started by global-setup.ts and removes their temporary data. */
import { rm } from 'node:fs/promises';
import { STAND_INS_GLOBAL, type StandInsHandle } from './support/stand-ins-handle';

export default async function teardown(): Promise<void> {
  const globals = globalThis as Record<string, unknown>;
  const handle = globals[STAND_INS_GLOBAL] as StandInsHandle | undefined;
  if (!handle) return;
  delete globals[STAND_INS_GLOBAL];
  try {
    await handle.standIns.stop();
  } finally {
    await rm(handle.dataDir, { recursive: true, force: true });
  }
}
