/** The analysis engine as the scanner uses it. */
import { analyzeTarball } from '../analysis/index';
import type { AnalysisResult } from '../analysis/types';

export function analyzePackageTarball(tarball: Buffer): Promise<AnalysisResult> {
  return analyzeTarball(tarball);
}
