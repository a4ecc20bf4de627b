/** File name of the offline download-count table beside a bundled handler (no imports: the CDK app reads it). */
export const SNAPSHOT_FILE_NAME = 'download-counts.pkdl';
