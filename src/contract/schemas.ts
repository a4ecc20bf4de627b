/**
 * The HTTP contract as runtime schemas (zod) and TypeScript types.
 * Source of truth for handlers, the store, the analysis engine and the OpenAPI document.
 * Imports no AWS SDK.
 */
import * as z from 'zod';
import { REGISTRIES } from './registries';

export { REGISTRIES } from './registries';
export { emptyCapabilities, toListItem } from './records';

export const Registry = z.enum(REGISTRIES);

export const RiskLevel = z.enum(['clean', 'warning', 'critical']);
export type RiskLevel = z.infer<typeof RiskLevel>;

export const THREAT_TYPES = [
  'prompt_injection',
  'instruction_override',
  'data_exfiltration',
  'social_engineering',
  'install_script_injection',
  'malicious_code',
] as const;
export const ThreatType = z.enum(THREAT_TYPES);
export type ThreatType = z.infer<typeof ThreatType>;

const sortedStrings = z.array(z.string()).describe('Sorted, de-duplicated strings');

export const Capabilities = z
  .object({
    network: z
      .object({ makes_requests: z.boolean(), domains: sortedStrings, protocols: sortedStrings })
      .strict(),
    filesystem: z.object({ reads: z.boolean(), writes: z.boolean(), paths: sortedStrings }).strict(),
    process: z.object({ spawns_children: z.boolean(), commands: sortedStrings }).strict(),
    environment: z.object({ accessed_vars: sortedStrings }).strict(),
    native: z.object({ has_native: z.boolean(), native_modules: sortedStrings }).strict(),
  })
  .strict();
export type Capabilities = z.infer<typeof Capabilities>;

export const Severity = z.enum(['low', 'medium', 'high', 'critical']);
export type Severity = z.infer<typeof Severity>;

export const Cve = z
  .object({
    cve_id: z.string().regex(/^CVE-\d{4}-\d{4,}$/),
    severity: Severity,
    description: z.string(),
    fixed_in: z.string().describe('Lowest fixed version above the scanned one; empty string when none'),
  })
  .strict();
export type Cve = z.infer<typeof Cve>;

/** One matching OSV record, as reported in the response's `advisories` field. */
export const Advisory = z
  .object({
    id: z.string().describe('OSV id, for example GHSA-xxxx-xxxx-xxxx or MAL-2024-1234'),
    aliases: z.array(z.string()).describe('Other ids of the same advisory (CVE ids among them)'),
    severity: Severity,
    summary: z.string(),
    fixed_in: z.string().describe('Lowest fixed version above the scanned one; empty string when none'),
    malicious: z.boolean().describe('The record reports the package version as malicious (MAL- id or alias)'),
    url: z.string().optional().describe("The advisory's own page, from the record's references"),
  })
  .strict();
export type Advisory = z.infer<typeof Advisory>;

export const AgenticThreat = z
  .object({
    threat_type: ThreatType,
    confidence: z.number().min(0).max(1),
    location: z.string().describe('path:line inside the package'),
    snippet: z.string().describe('Short excerpt; invisible characters shown escaped'),
  })
  .strict();
export type AgenticThreat = z.infer<typeof AgenticThreat>;

export const Publisher = z.object({ name: z.string(), verified: z.boolean() }).strict();
export type Publisher = z.infer<typeof Publisher>;

export const InstallScripts = z
  .object({ preinstall: z.boolean(), install: z.boolean(), postinstall: z.boolean(), prepare: z.boolean() })
  .strict();
export type InstallScripts = z.infer<typeof InstallScripts>;

const isoTimestamp = z.iso.datetime({ offset: true });

export const TrustComponent = z
  .object({
    name: z.enum([
      'base',
      'downloads',
      'package_age',
      'version_age',
      'maintainers',
      'provenance',
      'deprecation',
    ]),
    points: z.number().describe('Points this component gives (deprecation subtracts)'),
    max: z.number().describe('Most points the component can give'),
    why: z.string().describe('What the points were given for'),
  })
  .strict();
export type TrustComponent = z.infer<typeof TrustComponent>;

export const DownloadsSource = z
  .object({
    kind: z
      .enum(['download-api', 'download-counts', 'none'])
      .describe(
        "`download-api`: last week's count from the live download-count service; `download-counts`: the offline monthly table, scaled to a week; `none`: no count (0 is reported)",
      ),
    as_of: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullable()
      .describe('Last day the count covers; null when unknown'),
  })
  .strict();
export type DownloadsSource = z.infer<typeof DownloadsSource>;

export const CHANGE_KINDS = [
  'install_script_added',
  'install_script_changed',
  'install_time_behaviour_added',
  'capability_added',
  'agentic_threat_added',
  'maintainers_changed',
  'publisher_changed',
  'provenance_lost',
  'dependency_added',
  'size_jump',
] as const;
export const ChangeKind = z.enum(CHANGE_KINDS);

export const Changes = z
  .object({
    since: z
      .string()
      .nullable()
      .describe('The earlier version compared with (the highest published below this one); null when none'),
    items: z.array(z.object({ kind: ChangeKind, detail: z.string() }).strict()),
  })
  .strict();
export type Changes = z.infer<typeof Changes>;

export const InstallTime = z
  .object({
    scripts: z
      .array(z.object({ name: z.string(), command: z.string() }).strict())
      .describe(
        'The lifecycle scripts npm runs on install (preinstall, install, postinstall; `node-gyp rebuild` when a binding.gyp implies it), with their commands',
      ),
    makes_requests: z.boolean().describe('The code those scripts run makes network requests'),
    domains: sortedStrings,
    spawns_children: z.boolean().describe('The code those scripts run starts processes'),
    commands: sortedStrings,
  })
  .strict();
export type InstallTime = z.infer<typeof InstallTime>;

export const PackageResponse = z
  .object({
    name: z.string().min(1),
    version: z.string().min(1),
    registry: z.string(),
    risk_level: RiskLevel,
    risk_reasons: z.array(z.string()),
    trust_score: z.number().min(0).max(100),
    trust_components: z
      .array(TrustComponent)
      .optional()
      .describe('How the trust score was made; absent on results stored before it was reported'),
    publisher: Publisher,
    weekly_downloads: z.number().int().min(0),
    downloads_source: DownloadsSource.optional().describe(
      'Where `weekly_downloads` came from; absent on results stored before it was reported',
    ),
    changes: Changes.optional().describe(
      'What changed since the previous version; absent on results stored before it was reported',
    ),
    install_scripts: InstallScripts,
    install_time: InstallTime.optional().describe(
      'What runs when npm installs this version, and what that code does; absent on results stored before it was reported',
    ),
    published_at: isoTimestamp
      .nullable()
      .optional()
      .describe(
        'When the registry published this version; null when unknown (uploaded tarballs); absent on results stored before it was reported',
      ),
    cves: z.array(Cve),
    advisories: z.array(Advisory),
    agentic_threats: z.array(AgenticThreat),
    capabilities: Capabilities,
    docs_md: z.string().optional(),
    scanned_at: isoTimestamp,
  })
  .strict();
export type PackageResponse = z.infer<typeof PackageResponse>;

export const PackageListItem = z
  .object({
    name: z.string(),
    version: z.string(),
    registry: z.string(),
    risk_level: RiskLevel,
    trust_score: z.number().min(0).max(100),
    weekly_downloads: z.number().int().min(0),
    publisher_verified: z.boolean(),
    cve_count: z.number().int().min(0),
    threat_count: z.number().int().min(0),
    capabilities: Capabilities,
    scanned_at: isoTimestamp,
  })
  .strict();
export type PackageListItem = z.infer<typeof PackageListItem>;

export const PackageList = z
  .object({
    packages: z.array(PackageListItem),
    total: z.number().int().min(0),
    limit: z.number().int().min(1).max(100),
    offset: z.number().int().min(0),
  })
  .strict();
export type PackageList = z.infer<typeof PackageList>;

export { BULK_MAX, BulkRequest, PackageRef, ScanRequest } from './requests';

export const BulkNotFound = z
  .object({ name: z.string(), version: z.string(), registry: z.string(), error: z.string() })
  .strict();
export type BulkNotFound = z.infer<typeof BulkNotFound>;

export const BulkResponse = z.array(z.union([PackageResponse, BulkNotFound]));
export type BulkResponse = z.infer<typeof BulkResponse>;

export const ScanAck = z.object({ job_id: z.uuid(), estimated_seconds: z.number().min(0) }).strict();
export type ScanAck = z.infer<typeof ScanAck>;

/** Answer of POST /v1/scan/upload-url: where to PUT a large tarball, and the job it starts. */
export const UploadTicket = z
  .object({
    job_id: z.uuid(),
    upload_url: z.string().url(),
    method: z.literal('PUT'),
    expires_in: z.number().int().min(1),
    max_bytes: z.number().int().min(1),
  })
  .strict();
export type UploadTicket = z.infer<typeof UploadTicket>;

export const ScanJobStatus = z.enum(['queued', 'running', 'completed', 'failed']);
export type ScanJobStatus = z.infer<typeof ScanJobStatus>;

export const ScanJob = z
  .object({
    job_id: z.uuid(),
    status: ScanJobStatus,
    source: z.enum(['registry', 'tarball']),
    name: z.string(),
    version: z.string(),
    registry: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    error: z.string().optional(),
    result: PackageResponse.optional(),
  })
  .strict();
export type ScanJob = z.infer<typeof ScanJob>;

export const ErrorBody = z.object({ error: z.string().min(1) }).strict();
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Health = z.object({ status: z.literal('ok') }).strict();
export type Health = z.infer<typeof Health>;
