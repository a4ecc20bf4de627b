import type { StandIns } from '../../../local/stand-ins';

/** Key of the global through which global setup hands the running stand-ins to global teardown. */
export const STAND_INS_GLOBAL = '__pkgscanIntegrationStandIns';

export interface StandInsHandle {
  readonly standIns: StandIns;
  readonly dataDir: string;
}
