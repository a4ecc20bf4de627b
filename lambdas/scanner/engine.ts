/** The analysis engine as the scanner uses it. */
import { analyzeTarball } from '../../src/engine/index';
import type { AnalysisResult } from '../../src/engine/types';

export function analyzePackageTarball(tarball: Buffer): Promise<AnalysisResult> {
  return analyzeTarball(tarball);
}
