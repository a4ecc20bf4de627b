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
import type { ThreatType } from '../contract/schemas';
import { confidence, type RuleId, type VariantOf } from './rules';
import { analyzeScript, newScriptState } from './script-behaviour';
import { analyzeShell, inlineNodeCode } from './shell';

export interface WorkflowHit {
  rule: RuleId;
  threat_type: ThreatType;
  /** From the catalogue, for the variant below. */
  confidence: number;
  variant?: VariantOf<RuleId>;
  message: string;
  line: number;
  text: string;
}

const CI_FILE =
  /(?:^|\/)(?:\.github\/workflows\/[^/]+\.ya?ml|action\.ya?ml|\.gitlab-ci\.ya?ml|\.circleci\/config\.ya?ml|azure-pipelines\.ya?ml|bitbucket-pipelines\.ya?ml)$/i;

export function isCiWorkflow(path: string, text?: string): boolean {
  if (CI_FILE.test(path)) return true;
  // A GitHub Actions workflow kept elsewhere (a template a CLI copies into projects, a mirror of a
  // reusable workflow): read by its shape, `on:` and `jobs:` with steps.
  return (
    text !== undefined &&
    /\.ya?ml$/i.test(path) &&
    /^on:/m.test(text) &&
    /^jobs:\s*$/m.test(text) &&
    /^\s+(?:runs-on|steps|uses):/m.test(text)
  );
}

const SECRET_REF =
  /\$\{\{\s*(?:secrets\.\w+|toJSON\(\s*secrets\s*\)|secrets\[[^\]]+\])\s*\}\}|\$(?:CI_JOB_TOKEN|NPM_TOKEN|GH_TOKEN|GITHUB_TOKEN)\b|\$\((?:System\.AccessToken|[\w.]*(?:TOKEN|SECRET|PASSWORD|PAT|API_?KEY|ACCESS_?KEY)[\w.]*)\)/i;
const ALL_SECRETS = /toJSON\(\s*secrets\s*\)/i;
/** Action input names that say the value is a secret. */
const SECRET_INPUT =
  /token|secret|password|passwd|api[-_]?key|access[-_]?key|private[-_]?key|\bpat\b|credential/i;
const NET =
  /\b(?:curl|wget|nc|ncat|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|nslookup|dig)\b|\bgh\s+(?:gist\s+create|api|issue\s+(?:create|comment)|pr\s+comment|release\s+create)\b/i;
/** Network commands of a step that the shell reading does not follow (curl, wget, nc and DNS tools it does). */
const NET_UNMODELLED =
  /\b(?:Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b|\bgh\s+(?:gist\s+create|api|issue\s+(?:create|comment)|pr\s+comment|release\s+create)\b/i;
/** Code in a step (actions/github-script, inline node) that serialises the whole environment and a network call. */
const JS_ENV_WHOLE =
  /JSON\.stringify\(\s*process\.env\s*\)|Object\.(?:entries|keys|values)\(\s*process\.env\s*\)|\.\.\.process\.env\b/;
const JS_NET =
  /\bfetch\s*\(|\bhttps?\.(?:request|get)\s*\(|\baxios\b|\bXMLHttpRequest\b|\bgithub\.request\s*\(/;
/** CI services that put every project secret in each job's environment. */
const SECRETS_IN_ENV =
  /(?:^|\/)(?:\.gitlab-ci\.ya?ml|\.circleci\/config\.ya?ml|bitbucket-pipelines\.ya?ml)$/i;
/** A secret passed as a request credential: a header (`-H "Authorization: …"`) or a client's token flag. */
const AS_CREDENTIAL =
  /(?:-H|--header)\s+["']?[\w-]+:\s*[^"'\n]*(?:\$\{\{\s*secrets\.|\$\{?\w*(?:TOKEN|KEY|SECRET|PASS)\w*|\$\{?[1-9@]\}?|\$env:\w+)/i;

const AS_CREDENTIAL_G = new RegExp(`${AS_CREDENTIAL.source}[^"'\\s]*["']?`, 'gi');

interface Step {
  run: string;
  env: string;
  /** JavaScript run by actions/github-script rather than a shell script. */
  js?: boolean;
  /** The step's `shell: python`: its script is Python. */
  python?: boolean;
  /** The job also runs an upload or cache action. */
  uploads?: boolean;
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
  // A job's steps: note whether any of them uploads files (artifacts, caches, releases, pages).
  if (Array.isArray(o.steps)) {
    const before = out.length;
    for (const x of o.steps) steps(x, env, out, depth + 1);
    const uploads = o.steps.some(
      (st) =>
        !!st &&
        typeof st === 'object' &&
        typeof (st as { uses?: unknown }).uses === 'string' &&
        /upload-artifact|upload-pages-artifact|actions\/cache|gh-release|release-action/i.test(
          (st as { uses: string }).uses,
        ),
    );
    if (uploads) for (let i = before; i < out.length; i++) out[i]!.uploads = true;
    for (const [k, v] of Object.entries(o)) if (k !== 'env' && k !== 'steps') steps(v, env, out, depth + 1);
    return;
  }
  // actions/github-script: its `with.script` is JavaScript run with the job's token and env.
  const w = o.with as Record<string, unknown> | undefined;
  if (typeof o.uses === 'string' && /github-script/i.test(o.uses) && typeof w?.script === 'string') {
    out.push({ run: w.script, env, js: true });
    for (const [k, v] of Object.entries(o)) if (k !== 'env' && k !== 'with') steps(v, env, out, depth + 1);
    return;
  }
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
    if (text) out.push({ run: text, env, python: key === 'run' && /^python/i.test(String(o.shell ?? '')) });
  }
  for (const [k, v] of Object.entries(o)) if (k !== 'env') steps(v, env, out, depth + 1);
}

/** JavaScript a workflow runs (github-script, `node -e`), with the line of its step. */
export interface WorkflowCode {
  code: string;
  line: number;
}

export function analyzeWorkflow(text: string, path = ''): WorkflowHit[] {
  return analyzeWorkflowFile(text, path).hits;
}

/**
 * Expressions in code a step runs: `${{ secrets.X }}` is the secret (read as `process.env.X`),
 * `${{ toJSON(secrets) }}` all of them; other expressions are replaced by an empty string.
 */
function codeWithSecrets(code: string, env = ''): string {
  // Step or job env naming a secret (`ALL: ${{ toJSON(secrets) }}`, `T: ${{ secrets.NPM_TOKEN }}`):
  // the code's `process.env.ALL` is every secret, `process.env.T` is NPM_TOKEN.
  for (const m of env.matchAll(
    /"([A-Za-z_]\w*)"\s*:\s*"\$\{\{\s*(toJSON\(\s*secrets\s*\)|secrets\.(\w+))\s*\}\}"/g,
  )) {
    const as = m[3] ? `process.env.${m[3]}` : 'JSON.stringify(process.env)';
    code = code.replace(new RegExp(`process\\.env(?:\\.${m[1]}\\b|\\[\\s*['"]${m[1]}['"]\\s*\\])`, 'g'), as);
  }
  return code
    .replace(/\$\{\{\s*toJSON\(\s*secrets\s*\)\s*\}\}/gi, 'JSON.stringify(process.env)')
    .replace(/(["'`]?)\$\{\{\s*secrets\.(\w+)\s*\}\}\1/gi, (_m, _q, name: string) => `process.env.${name}`)
    .replace(/\$\{\{[^}]*\}\}/g, '');
}

/**
 * The hits of a workflow file, and the JavaScript its steps run (actions/github-script scripts,
 * `node -e` code) for the JavaScript engine to read like any other code of the package.
 */
export function analyzeWorkflowFile(text: string, path = ''): { hits: WorkflowHit[]; code: WorkflowCode[] } {
  const hits: WorkflowHit[] = [];
  const code: WorkflowCode[] = [];
  let docs;
  try {
    docs = parseAllDocuments(text.slice(0, 1_000_000), { logLevel: 'error' });
  } catch {
    return { hits, code };
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
  const envHasSecrets = SECRETS_IN_ENV.test(path);
  const files = new Map<string, string>();
  const who = /(?:^|\/)action\.ya?ml$/i.test(path) ? 'a shipped GitHub Action' : 'a shipped CI workflow';
  for (const s of all) {
    const line = lineOf(s.run);
    hits.push(...stepHits(s, line, who, false, envHasSecrets, files));
    const js = s.js ? [s.run] : inlineNodeCode(s.run);
    for (const c of js) if (code.length < 50) code.push({ code: codeWithSecrets(c, s.env), line });
  }
  return { hits, code };
}

/**
 * Scripts that GitHub runs for an action a package or repository ships (`action.yml` next to
 * them: a container entrypoint, a composite step's script): read like a workflow step, plus the
 * runner-specific thefts — the checkout token taken from `.git/config`, secrets scraped from the
 * runner's process memory.
 */
export function analyzeCiScript(text: string, argsAreSecrets = false): WorkflowHit[] {
  const hits = stepHits(
    { run: text.slice(0, 1_000_000), env: '' },
    1,
    'a script run by a shipped CI action',
    argsAreSecrets,
  );
  const lines = text.split('\n');
  const at = (re: RegExp) => {
    const i = lines.findIndex((l) => re.test(l));
    return i >= 0 ? { line: i + 1, text: lines[i]!.trim().slice(0, 200) } : undefined;
  };
  // Unsetting the header (`git config --unset-all …extraheader`) is what actions that push with
  // their own token do; reading it is the theft.
  const token = /\.git\/config\b/.test(text)
    ? at(/^(?!.*--(?:unset|remove-section)).*(?:AUTHORIZATION|extraheader)/i)
    : undefined;
  if (token)
    hits.push({
      rule: 'workflow.token-theft',
      threat_type: 'data_exfiltration',
      confidence: confidence('workflow.token-theft'),
      message: 'reads the checkout token that actions/checkout leaves in .git/config',
      ...token,
    });
  return hits;
}

/** A pipeline that ends by encoding to standard output (not decoding, not into a file). */
const ENCODED_TO_LOG =
  /\|\s*(?:base64|xxd|od|openssl\s+(?:base64|enc\s+-base64))(?![^\n|]*(?:\s-d\b|--decode|\s-r\b|>))[^\n|]*(?:\|\s*(?:base64|xxd|rev|tr)\b(?![^\n|]*(?:\s-d\b|--decode|>))[^\n|]*)*\s*$/m;
/** The runner's own memory or the secrets it keeps there (`"isSecret":true`, Runner.Worker). */
const RUNNER_MEMORY = /\bisSecret\b|Runner\.Worker|\/proc\/\S*\/mem\b|\bmemdump\b/i;

function stepHits(
  s: Step,
  line: number,
  who: string,
  argsAreSecrets = false,
  envHasSecrets = false,
  /** Shared by the steps of one file: a file one step writes secrets into, a later one sends. */
  files: Map<string, string> = new Map(),
): WorkflowHit[] {
  const hits: WorkflowHit[] = [];
  const add = (message: string, variant?: VariantOf<'workflow.secrets-exfil'>) =>
    hits.push({
      rule: 'workflow.secrets-exfil',
      threat_type: 'data_exfiltration',
      confidence: confidence('workflow.secrets-exfil', { variant }),
      variant,
      message: message.replace('a shipped CI workflow', who),
      line,
      text: s.run.slice(0, 200),
    });
  // Secrets handed to the step as environment variables (`env: { K: ${{ secrets.X }} }`) are
  // secrets where the script uses `$K`.
  const secretVars = [
    ...s.env.matchAll(/"([A-Za-z_]\w*)"\s*:\s*"[^"]*\$\{\{\s*(?:secrets\.|toJSON\(\s*secrets)/g),
  ].map((m) => m[1]!);
  const names = secretVars.slice(0, 50).join('|');
  const varRef = secretVars.length
    ? new RegExp(
        `\\$\\{?(?:${names})\\b|\\$env:(?:${names})\\b|%(?:${names})%|process\\.env\\.(?:${names})\\b|os\\.environ(?:\\.get\\(|\\[)\\s*['"](?:${names})['"]`,
        'i',
      )
    : undefined;
  // A script an action calls with a token or secret as its argument: its positional parameters.
  const argRef = argsAreSecrets
    ? /\$\{?[1-9@*]\}?|\$args\[\d\]|%~?[1-9]|\bsys\.argv\b|\bprocess\.argv\b/
    : undefined;
  const refersSecret = (t: string) =>
    SECRET_REF.test(t) || (varRef?.test(t) ?? false) || (argRef?.test(t) ?? false);
  const secretsInRun = refersSecret(s.run);
  const secretsInEnv = SECRET_REF.test(s.env);
  const sends = NET.test(s.run);
  // `shell: python`: the step is read by the Python rules; an environment variable it sends out,
  // where the step's environment holds secrets, is a secret sent.
  if (s.python) {
    const py = s.run.replace(/\$\{\{\s*secrets\.(\w+)\s*\}\}/gi, (_m, n: string) => `os.environ["${n}"]`);
    const hit = analyzeScript(py, 'python', false).find(
      (h) => h.rule === 'script.env-exfil' && (secretsInEnv || secretsInRun || envHasSecrets),
    );
    if (hit) {
      // A step runs on every push, as a shell step does: the base weight, not a shipped file's.
      hits.push({
        ...hit,
        variant: undefined,
        confidence: confidence('script.env-exfil', {}),
        message: `${who} ${hit.message} (a Python step whose environment holds secrets)`,
        line,
      });
      return hits;
    }
  }
  // The step read as the shell script it is, with `${{ secrets.X }}` written as the variable `$X`
  // and every name known to hold a secret: the script rules then see secrets sent to the network
  // exactly as they see them in a lifecycle script.
  const secretNames = new Set(secretVars);
  // A script an action calls with a secret as its argument: its positional parameters.
  if (argsAreSecrets)
    for (const n of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '@', '*']) secretNames.add(n);
  const asShell = s.run
    .replace(/\$\{\{\s*toJSON\(\s*secrets\s*\)\s*\}\}/gi, () => {
      secretNames.add('ALL_SECRETS');
      return '$ALL_SECRETS';
    })
    .replace(/\$\{\{\s*secrets\.(\w+)\s*\}\}/gi, (_m, name: string) => {
      secretNames.add(name);
      return `\${${name}}`;
    })
    // Azure Pipelines secret macros (`$(System.AccessToken)`, `$(NPM_TOKEN)`).
    .replace(
      /\$\((System\.AccessToken|[\w.]*(?:TOKEN|SECRET|PASSWORD|PAT|API_?KEY|ACCESS_?KEY)[\w.]*)\)/gi,
      (_m, name: string) => {
        const v = `AZ_${name.replace(/\W/g, '_').toUpperCase()}`;
        secretNames.add(v);
        return `\${${v}}`;
      },
    )
    // A composite action's inputs named as secrets (`token`, `api-key`) hold what callers pass in.
    .replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/gi, (m, name: string) => {
      if (!SECRET_INPUT.test(name)) return m;
      const v = `INPUT_${name.replace(/-/g, '_').toUpperCase()}`;
      secretNames.add(v);
      return `\${${v}}`;
    });
  // The step's literal environment values (`env: { P: 'base64…' }`) are the variables its script
  // reads: a payload kept there is decoded and read like one written in the script.
  // (Only those the script names that hold one encoded word, not text: 64 KB in all.)
  let room = 64 * 1024;
  // (Such a word has no quote or escape to undo.)
  const literals = [...s.env.matchAll(/"([A-Za-z_]\w*)"\s*:\s*"([A-Za-z0-9+/=_.-]{1,20000})"/g)]
    .filter((m) => new RegExp(`\\$\\{?${m[1]}\\b`).test(s.run) && (room -= m[2]!.length) >= 0)
    .slice(0, 50)
    .map((m) => `${m[1]}='${m[2]}'`);
  const scriptHits = analyzeScript([...literals, asShell].join('\n'), 'sh', false, {
    ...newScriptState(),
    secretVars: secretNames,
    secretFiles: files,
  });
  // Encoded text a step decodes and runs (`eval "$(printf %s "$P" | rev | base64 -d)"`): nothing a
  // build step needs hidden from the people who read the workflow.
  const decodeRun = scriptHits.find((h) => /^shell\.(?:base64-decode-run|powershell-encoded)$/.test(h.rule));
  if (decodeRun)
    hits.push({ ...decodeRun, threat_type: 'malicious_code', message: `${who} ${decodeRun.message}`, line });
  const sentSecret = scriptHits.find((h) => h.rule === 'script.env-exfil' && /\bsecrets\b/.test(h.message));
  if (sentSecret) {
    hits.push({
      ...sentSecret,
      message: `${who} ${sentSecret.message
        .replace('secrets from the environment', 'secrets')
        .replace(/secrets \(ALL_SECRETS[^)]*\)/, 'every secret')
        .replace('ALL_SECRETS', 'every secret')}`,
      line,
    });
    return hits;
  }
  if (ALL_SECRETS.test(s.run) || (ALL_SECRETS.test(s.env) && sends)) {
    if (sends || /base64|xxd|gzip/.test(s.run)) {
      add('a shipped CI workflow serialises every secret and sends it out', 'allSecrets');
      return hits;
    }
  }
  // Network commands the shell reading above does not model (the gh CLI, PowerShell cmdlets):
  // a secret anywhere in their step counts as sent. Secrets used only as a request credential
  // (`-H "Authorization: Bearer $TOKEN"`) are what CI is for: those header arguments are left out.
  if (NET_UNMODELLED.test(s.run) && refersSecret(s.run.replace(AS_CREDENTIAL_G, ''))) {
    add('a shipped CI workflow sends a secret to the network');
    return hits;
  }
  // Secrets printed encoded into the job log: the runner masks secrets it knows in their plain
  // form only, and a public repository's logs are public (the 2025 changed-files compromise
  // printed what it scraped from the runner's memory, base64-encoded twice).
  if (
    ENCODED_TO_LOG.test(s.run) &&
    (RUNNER_MEMORY.test(s.run) ||
      refersSecret(s.run.replace(AS_CREDENTIAL_G, '').replace(/^.*::add-mask::.*$/gm, '')))
  ) {
    add('a shipped CI workflow prints secrets encoded into the job log, past its masking', 'encodedLog');
    return hits;
  }
  // Secrets scraped from the runner's memory, or credential files sent, whatever the env.
  const scraped = scriptHits.find((h) => /^script\.(?:process-memory-read|secret-file-exfil)$/.test(h.rule));
  if (scraped) {
    add(`a step of a shipped CI workflow ${scraped.message}`, 'scraped');
    return hits;
  }
  // `node -e "…"` / `python -c "…"` steps: the inline code sees the same environment.
  if ((secretsInEnv || secretsInRun) && /\bnode\s+(?:-e|--eval|-p)\b|\bpython3?\s+-c\b/.test(s.run)) {
    if (
      /process\.env|os\.environ/.test(s.run) &&
      /fetch\s*\(|https?\.request|require\(\s*['"](?:node:)?https?['"]\s*\)\s*\.\s*(?:request|get)\b|axios|urllib|requests\.post|XMLHttpRequest/.test(
        s.run,
      )
    ) {
      add('a shipped CI workflow step runs inline code that sends its environment, with secrets, out');
      return hits;
    }
  }
  // Secrets written to a file that the job then uploads as an artifact (public on public repositories).
  if (
    s.uploads &&
    secretsInRun &&
    /(?:>>?|tee\s+(?:-a\s+)?)\s*["']?[\w./-]+/.test(s.run.replace(AS_CREDENTIAL_G, ''))
  ) {
    add('a shipped CI workflow writes secrets to a file and uploads it as a build artifact', 'artifact');
    return hits;
  }
  // github-script code that writes a secret somewhere GitHub shows it (a public gist, an issue or
  // pull-request comment, a file committed to a repository).
  if (s.js) {
    const write =
      /github\.rest\.(?:gists\.create|issues\.(?:create|createComment|update)|pulls\.(?:create|createReview(?:Comment)?)|repos\.(?:createOrUpdateFileContents|createCommitComment))\s*\(([\s\S]{0,600})/.exec(
        s.run,
      );
    if (write && refersSecret(write[1]!)) {
      add(
        'a shipped CI workflow writes a secret through the GitHub API (a gist, a comment, a committed file)',
      );
      return hits;
    }
  }
  // Code run by the step (actions/github-script, inline scripts) that sends the whole environment.
  if (JS_ENV_WHOLE.test(s.run) && JS_NET.test(s.run)) {
    add(
      'a shipped CI workflow runs code that sends its environment to the network',
      secretsInEnv || envHasSecrets ? undefined : 'runnerEnv',
    );
    return hits;
  }
  const envDump = scriptHits.find((h) => h.rule === 'script.env-exfil');
  if (envDump && (secretsInEnv || secretsInRun || envHasSecrets || /\$\{\{/.test(s.run))) {
    hits.push({ ...envDump, message: `${who} ${envDump.message}, with the job's secrets in it`, line });
  } else if (envDump) {
    add('a shipped CI workflow sends the runner environment to the network', 'runnerEnv');
  }
  return hits;
}

/** VS Code workspace tasks (`.vscode/tasks.json`): a task can run when the folder is opened. */
export function isEditorTasks(path: string): boolean {
  return /(?:^|\/)\.vscode\/tasks\.json$/i.test(path);
}

/** JSON with comments and trailing commas (the format VS Code reads) to plain JSON. */
function stripJsonc(text: string): string {
  let out = '';
  let inStr = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inStr) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inStr = false;
      continue;
    }
    if (ch === '"') inStr = true;
    else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
      continue;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    out += ch;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

const SCRIPT_RULES = new Set([
  'shell.download-pipe-shell',
  'shell.download-chmod-run',
  'shell.powershell-encoded',
  'shell.powershell-download',
  'shell.encoded-node-eval',
  'shell.base64-decode-run',
  'shell.reverse-shell',
  'shell.destructive',
  'script.download-execute',
  'script.env-exfil',
  'script.destructive',
  'script.crypto-miner',
  'script.persistence',
]);

/**
 * Tasks that run when the folder is opened (`"runOptions": { "runOn": "folderOpen" }`): the
 * fake-job-interview repositories and project templates use them to run a downloaded script as
 * soon as the editor opens the project. Every command variant (`osx`, `linux`, `windows`) is read
 * with the script rules; a hidden task (`"reveal": "never"`, no echo) that reaches the network is
 * reported even when its command is not one of the known shapes.
 */
export function analyzeEditorTasks(text: string): WorkflowHit[] {
  return analyzeEditorTasksFile(text).hits;
}

/** The hits of a tasks file, and the inline `node -e` code its folder-open tasks run. */
export function analyzeEditorTasksFile(text: string): { hits: WorkflowHit[]; code: WorkflowCode[] } {
  const hits: WorkflowHit[] = [];
  const code: WorkflowCode[] = [];
  let doc: unknown;
  try {
    doc = JSON.parse(stripJsonc(text.slice(0, 1_000_000)));
  } catch {
    return { hits, code };
  }
  const tasks = (doc as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(tasks)) return { hits, code };
  const lines = text.split('\n');
  for (const t of tasks.slice(0, 200)) {
    if (!t || typeof t !== 'object') continue;
    const task = t as Record<string, unknown>;
    const runOn = (task.runOptions as { runOn?: unknown } | undefined)?.runOn;
    if (runOn !== 'folderOpen') continue;
    const commands: string[] = [];
    for (const v of [task, task.osx, task.linux, task.windows]) {
      if (!v || typeof v !== 'object') continue;
      const o = v as { command?: unknown; args?: unknown };
      if (typeof o.command !== 'string') continue;
      const args = Array.isArray(o.args) ? o.args.filter((a) => typeof a === 'string').join(' ') : '';
      commands.push(`${o.command} ${args}`.trim());
    }
    const presentation = (task.presentation ?? {}) as Record<string, unknown>;
    const hidden = presentation.reveal === 'never' || presentation.echo === false;
    const label = typeof task.label === 'string' ? task.label : '';
    for (const cmd of commands) {
      const first = cmd.trim().split('\n')[0]!.trim().slice(0, 60);
      const i = first
        ? lines.findIndex((l) => l.includes(first) || l.includes(JSON.stringify(first).slice(1, -1)))
        : -1;
      const line = i >= 0 ? i + 1 : 1;
      for (const c of inlineNodeCode(cmd)) if (code.length < 50) code.push({ code: c, line });
      const dialect = /\|\s*cmd\b|\bpowershell\b|\.(?:bat|cmd|ps1)\b/i.test(cmd) ? 'batch' : 'sh';
      const found = [...analyzeShell(cmd, true), ...analyzeScript(cmd, dialect, true)].find((h) =>
        SCRIPT_RULES.has(h.rule),
      );
      // What the command does is reported by the script rule that reads it, as for a lifecycle
      // script (a task that runs on folder open is weighed like one: it runs unasked). It is not
      // an install script, though: what a script rule calls install-script injection is code run
      // unasked here.
      if (found) {
        hits.push({
          ...found,
          threat_type:
            found.threat_type === 'install_script_injection' ? 'malicious_code' : found.threat_type,
          message: `a VS Code task${label ? ` "${label.slice(0, 40)}"` : ''} runs${hidden ? ' hidden' : ''} when the folder is opened and ${found.message}`,
          line,
          text: cmd.slice(0, 200),
        });
        break;
      }
      if (
        hidden &&
        /\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|certutil|bitsadmin|nc|ncat)\b|https?:\/\//i.test(
          cmd,
        )
      ) {
        hits.push({
          rule: 'editor.autorun-task',
          threat_type: 'malicious_code',
          confidence: confidence('editor.autorun-task', { variant: 'hiddenNetwork' }),
          variant: 'hiddenNetwork',
          message: `a hidden VS Code task${label ? ` "${label.slice(0, 40)}"` : ''} reaches the network as soon as the folder is opened`,
          line,
          text: cmd.slice(0, 200),
        });
        break;
      }
    }
  }
  return { hits, code };
}

/**
 * The scripts an action's metadata (`action.yml`) runs with a secret as an argument: a step
 * line naming a script file and passing `${{ secrets.* }}`, `${{ github.token }}` or an input
 * that is a secret (named like one, or defaulting to a token). Base names of those scripts.
 */
export function scriptsGivenSecrets(actionYml: string): Set<string> {
  const out = new Set<string>();
  let doc: unknown;
  try {
    doc = parseAllDocuments(actionYml.slice(0, 200_000), { logLevel: 'error' })[0]?.toJS({
      maxAliasCount: 50,
    });
  } catch {
    return out;
  }
  const inputs = (doc as { inputs?: Record<string, { default?: unknown }> } | undefined)?.inputs ?? {};
  const secretInputs = Object.entries(inputs)
    .filter(
      ([name, spec]) =>
        /token|secret|passw|\bpat\b|api[-_]?key|credential|private[-_]?key/i.test(name) ||
        /github\.token|secrets\./i.test(String(spec?.default ?? '')),
    )
    .map(([name]) => name.replace(/[^\w-]/g, ''));
  const secretRef = new RegExp(
    `\\$\\{\\{\\s*(?:secrets\\.|github\\.token${secretInputs.length ? `|inputs\\.(?:${secretInputs.join('|')})\\b` : ''})`,
    'i',
  );
  for (const line of actionYml.split('\n')) {
    if (!secretRef.test(line)) continue;
    for (const m of line.matchAll(/([\w.-]+\.(?:sh|bash|ps1|py|js|mjs|cjs|bat|cmd))\b/g)) out.add(m[1]!);
  }
  return out;
}

/**
 * Environment variables a workflow (or a template a CLI copies into projects) fills with secrets:
 * `NAME: ${{ secrets.X }}` ('one'), `NAME: ${{ toJSON(secrets) }}` ('all': every secret the CI
 * holds). The package's own code reading them reads those secrets, whatever they are called.
 */
export function envGivenSecrets(text: string): Map<string, 'one' | 'all'> {
  const out = new Map<string, 'one' | 'all'>();
  for (const m of text
    .slice(0, 200_000)
    // (Also in a flow mapping, `env: { A: … }`, and as a block scalar, `A: >-` then the value.)
    .matchAll(
      /(?:^|[{,])[ \t]*["']?([A-Za-z_]\w{0,63})["']?[ \t]*:[ \t]*(?:[>|][-+]?[ \t]*\r?\n[ \t]*)?["']?\$\{\{\s*(secrets\b|toJSON\(\s*secrets\s*\))/gim,
    ))
    if (out.size < 100 && out.get(m[1]!) !== 'all')
      out.set(m[1]!, m[2]!.startsWith('toJSON') ? 'all' : 'one');
  return out;
}
