/**
 * CI workflow files a package ships (`.github/workflows/*.yml`, `.gitlab-ci.yml`,
 * `.circleci/config.yml`, `azure-pipelines.yml`, `bitbucket-pipelines.yml`). They do not run on
 * `npm install`, but nothing a library needs puts them in its tarball; a worm drops them into
 * repositories to steal CI secrets. Each `run`/`script` step is read with the script rules, with
 * the secrets it can see: a step that sends secrets (or the whole environment holding them) to
 * the network is `data_exfiltration`. Secrets used as credentials in a header (calling an API
 * with its token) are what CI is for and are not reported.
 */
import { parseAllDocuments } from 'yaml';
import type { ThreatType } from '../shared/domain/schemas';
import { analyzeScript } from './script-behaviour';

export interface WorkflowHit {
  rule: string;
  threat_type: ThreatType;
  confidence: number;
  message: string;
  line: number;
  text: string;
}

const CI_FILE =
  /(?:^|\/)(?:\.github\/workflows\/[^/]+\.ya?ml|\.gitlab-ci\.ya?ml|\.circleci\/config\.ya?ml|azure-pipelines\.ya?ml|bitbucket-pipelines\.ya?ml)$/i;

export function isCiWorkflow(path: string): boolean {
  return CI_FILE.test(path);
}

const SECRET_REF =
  /\$\{\{\s*(?:secrets\.\w+|toJSON\(\s*secrets\s*\)|secrets\[[^\]]+\])\s*\}\}|\$(?:CI_JOB_TOKEN|NPM_TOKEN|GH_TOKEN|GITHUB_TOKEN)\b/i;
const ALL_SECRETS = /toJSON\(\s*secrets\s*\)/i;
const NET = /\b(?:curl|wget|nc|ncat|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|nslookup|dig)\b/i;
/** A secret passed as a request credential: a header (`-H "Authorization: …"`) or a client's token flag. */
const AS_CREDENTIAL = /(?:-H|--header)\s+["']?[\w-]+:\s*[^"'\n]*\$\{\{\s*secrets\./i;

interface Step {
  run: string;
  env: string;
}

/** Collects the shell of every step with the env it sees (job and workflow env included). */
function steps(node: unknown, inheritedEnv: string, out: Step[], depth = 0): void {
  if (depth > 12 || out.length > 500 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const x of node) steps(x, inheritedEnv, out, depth + 1);
    return;
  }
  const o = node as Record<string, unknown>;
  const env = o.env && typeof o.env === 'object' ? `${inheritedEnv}\n${JSON.stringify(o.env)}` : inheritedEnv;
  for (const key of [
    'run',
    'script',
    'before_script',
    'after_script',
    'command',
    'bash',
    'powershell',
    'pwsh',
  ]) {
    const v = o[key];
    const text =
      typeof v === 'string' ? v : Array.isArray(v) ? v.filter((x) => typeof x === 'string').join('\n') : '';
    if (text) out.push({ run: text, env });
  }
  for (const [k, v] of Object.entries(o)) if (k !== 'env') steps(v, env, out, depth + 1);
}

export function analyzeWorkflow(text: string): WorkflowHit[] {
  const hits: WorkflowHit[] = [];
  let docs;
  try {
    docs = parseAllDocuments(text.slice(0, 1_000_000));
  } catch {
    return hits;
  }
  const all: Step[] = [];
  for (const d of Array.isArray(docs) ? docs : [docs]) {
    try {
      steps(d.toJS({ maxAliasCount: 100 }), '', all);
    } catch {
      /* malformed document: nothing to read */
    }
  }
  const lines = text.split('\n');
  const lineOf = (needle: string) => {
    const first =
      needle
        .split('\n')
        .find((l) => l.trim())
        ?.trim() ?? '';
    const i = first ? lines.findIndex((l) => l.includes(first.slice(0, 60))) : -1;
    return i >= 0 ? i + 1 : 1;
  };
  for (const s of all) {
    const line = lineOf(s.run);
    const add = (rule: string, confidence: number, message: string) =>
      hits.push({
        rule,
        threat_type: 'data_exfiltration',
        confidence,
        message,
        line,
        text: s.run.slice(0, 200),
      });
    const secretsInRun = SECRET_REF.test(s.run);
    const secretsInEnv = SECRET_REF.test(s.env);
    const sends = NET.test(s.run);
    if (ALL_SECRETS.test(s.run) || (ALL_SECRETS.test(s.env) && sends)) {
      if (sends || /base64|xxd|gzip/.test(s.run)) {
        add('workflow.secrets-exfil', 0.9, 'a shipped CI workflow serialises every secret and sends it out');
        continue;
      }
    }
    if (secretsInRun && sends && !AS_CREDENTIAL.test(s.run)) {
      add('workflow.secrets-exfil', 0.85, 'a shipped CI workflow sends a secret to the network');
      continue;
    }
    const envDump = analyzeScript(s.run, 'sh', false).some((h) => h.rule === 'script.env-exfil');
    if (envDump && (secretsInEnv || secretsInRun || /\$\{\{/.test(s.run))) {
      add(
        'workflow.secrets-exfil',
        0.85,
        'a shipped CI workflow sends the environment, with its secrets, to the network',
      );
    } else if (envDump) {
      add('workflow.secrets-exfil', 0.7, 'a shipped CI workflow sends the runner environment to the network');
    }
  }
  return hits;
}
