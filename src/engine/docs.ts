/**
 * `docs_md`: a Markdown page a developer or an agent can read instead of the package.
 * README content is cleaned (hidden content stripped, HTML removed, invisible characters
 * escaped, length bounded): it is never passed through verbatim.
 */
import type { Capabilities, InstallScripts } from '../contract/schemas';
import { scanText, stripHiddenMarkdown } from './agentic';
import { escapeInvisible } from './text';
import type { PackageMetadata } from './types';

export interface DocsInput {
  metadata: PackageMetadata;
  install_scripts: InstallScripts;
  scripts: { name: string; command: string }[];
  capabilities: Capabilities;
  threats: { threat_type: string; confidence: number; location: string }[];
  risk_level: string;
  /** Exported names per entry file (from .d.ts or from the code). */
  api: { file: string; names: string[] }[];
  readme?: string;
  isEsmOnly: boolean;
}

const README_MAX = 4000;

function cleanInline(s: string): string {
  return escapeInvisible(
    s
      .replace(/[\r\n]+/g, ' ')
      .replace(/[<>]/g, '')
      .trim(),
  ).slice(0, 300);
}

/** Whether a text carries instructions to AI agents (then it is withheld from docs_md). */
export function aimedAtAgents(text: string, min = 0.35): boolean {
  return scanText({ path: 'package.json', text, context: 'markdown' }).some((f) => f.confidence >= min);
}

/**
 * Blanks the paragraphs of a README that the agent-text rules flag (>= 0.5): docs_md is read by
 * agents, so it must not relay instructions to them.
 */
function withoutAgentText(md: string): string {
  const flagged = scanText({ path: 'README.md', text: md, context: 'markdown' }).filter(
    (f) => f.confidence >= 0.5,
  );
  if (!flagged.length) return md;
  const lines = md.split('\n');
  for (const f of flagged) {
    let at = f.line - 1;
    while (at < lines.length - 1 && lines[at]!.trim() === '') at++;
    let i = at;
    while (i > 0 && lines[i - 1]!.trim() !== '') i--;
    for (; i < lines.length && lines[i]!.trim() !== ''; i++) lines[i] = '';
    lines[at] = '*(removed: text aimed at AI agents)*';
  }
  return lines.join('\n');
}

export function cleanReadme(md: string): string {
  let s = stripHiddenMarkdown(withoutAgentText(md));
  s = s
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '') // images and badges
    .replace(/\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)/g, '')
    .replace(/<img[^>]*>/gi, '')
    .replace(/<\/?[a-zA-Z][^>]*>/g, '') // remaining HTML tags
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  s = escapeInvisible(s);
  if (s.length > README_MAX) {
    const cut = s.lastIndexOf('\n\n', README_MAX);
    s = `${s.slice(0, cut > README_MAX / 2 ? cut : README_MAX)}\n\n…`;
  }
  // Keep fences balanced so the excerpt cannot swallow the rest of the page.
  if ((s.match(/^```/gm) ?? []).length % 2 === 1) s += '\n```';
  return s;
}

function exportPaths(exp: unknown): string[] {
  if (!exp || typeof exp !== 'object') return [];
  const keys = Object.keys(exp as Record<string, unknown>);
  return keys.filter((k) => k.startsWith('.')).slice(0, 30);
}

export function buildDocs(d: DocsInput): string {
  const m = d.metadata;
  const out: string[] = [];
  const name = cleanInline(m.name || '(unnamed)');
  out.push(`# ${name}${m.version ? `@${cleanInline(m.version)}` : ''}`, '');
  if (m.description)
    out.push(
      aimedAtAgents(m.description)
        ? '> *(description withheld: it contains text aimed at AI agents)*'
        : `> ${cleanInline(m.description)}`,
      '',
    );
  const facts: string[] = [];
  if (m.license) facts.push(`- License: ${cleanInline(m.license)}`);
  if (m.repository) facts.push(`- Repository: ${cleanInline(m.repository)}`);
  if (m.homepage) facts.push(`- Homepage: ${cleanInline(m.homepage)}`);
  facts.push(`- Risk level: ${d.risk_level}`);
  out.push(...facts, '');

  out.push('## Install', '', '```sh', `npm install ${name}`, '```', '');
  const ident = (
    name
      .replace(/^@[^/]+\//, '')
      .replace(/[^A-Za-z0-9_$]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : '')) || 'pkg'
  ).replace(/^\d/, '_$&');
  out.push('## Import', '', '```js');
  out.push(`import ${ident} from '${name}';`);
  if (!d.isEsmOnly) out.push(`// CommonJS: const ${ident} = require('${name}');`);
  out.push('```', '');

  const entries: string[] = [];
  if (m.main) entries.push(`- main: \`${cleanInline(m.main)}\``);
  if (m.module) entries.push(`- module: \`${cleanInline(m.module)}\``);
  if (m.types) entries.push(`- types: \`${cleanInline(m.types)}\``);
  const subpaths = exportPaths(m.exports);
  if (subpaths.length) entries.push(`- exports: ${subpaths.map((p) => `\`${cleanInline(p)}\``).join(', ')}`);
  if (entries.length) out.push('## Entry points', '', ...entries, '');

  const bins = Object.entries(m.bin);
  if (bins.length) {
    out.push('## CLI commands', '');
    for (const [cmd, file] of bins.slice(0, 20))
      out.push(`- \`${cleanInline(cmd)}\` → \`${cleanInline(file)}\``);
    out.push('');
  }

  const api = d.api.filter((a) => a.names.length);
  if (api.length) {
    out.push('## API', '');
    for (const a of api.slice(0, 5)) {
      out.push(`From \`${cleanInline(a.file)}\`:`, '');
      out.push(...a.names.slice(0, 60).map((n) => `- \`${cleanInline(n)}\``));
      if (a.names.length > 60) out.push(`- … ${a.names.length - 60} more`);
      out.push('');
    }
  }

  out.push('## Install scripts', '');
  if (d.scripts.length) for (const s of d.scripts) out.push(`- ${s.name}: \`${cleanInline(s.command)}\``);
  else out.push('None.');
  out.push('');

  const c = d.capabilities;
  out.push('## Capabilities', '');
  out.push(
    `- Network: ${c.network.makes_requests ? 'makes requests' : 'no requests seen'}${c.network.domains.length ? ` (domains: ${c.network.domains.slice(0, 10).join(', ')})` : ''}`,
  );
  out.push(
    `- File system: ${[c.filesystem.reads && 'reads', c.filesystem.writes && 'writes'].filter(Boolean).join(', ') || 'no access seen'}`,
  );
  out.push(
    `- Processes: ${c.process.spawns_children ? `starts child processes${c.process.commands.length ? ` (${c.process.commands.slice(0, 10).join(', ')})` : ''}` : 'none seen'}`,
  );
  out.push(
    `- Environment: ${
      c.environment.accessed_vars.length
        ? c.environment.accessed_vars
            .slice(0, 15)
            .map((v) => (v === '*' ? 'whole environment' : v))
            .join(', ')
        : 'none read'
    }`,
  );
  out.push(
    `- Native code: ${c.native.has_native ? `yes${c.native.native_modules.length ? ` (${c.native.native_modules.slice(0, 5).join(', ')})` : ''}` : 'no'}`,
  );
  out.push('');

  out.push('## Threats', '');
  const strong = d.threats.filter((t) => t.confidence >= 0.5);
  if (strong.length)
    for (const t of strong.slice(0, 10))
      out.push(
        `- ${t.threat_type} at \`${cleanInline(t.location)}\` (confidence ${t.confidence.toFixed(2)})`,
      );
  else out.push('No threat with confidence ≥ 0.5 was found.');
  out.push('');

  if (d.readme) {
    out.push('## README (cleaned excerpt)', '', cleanReadme(d.readme), '');
  }
  return out.join('\n');
}

/** Exported names from a TypeScript declaration file (text scan, no type checking). */
export function declarationExports(dts: string): string[] {
  const names = new Set<string>();
  for (const m of dts.matchAll(
    /^[ \t]*export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(function\*?|class|const|let|var|interface|type|enum|namespace|abstract\s+class)\s+([A-Za-z_$][\w$]*)/gm,
  )) {
    const kind = m[1]!.replace(/\s+/g, ' ');
    names.add(`${m[2]} (${kind === 'function*' ? 'function' : kind})`);
  }
  for (const m of dts.matchAll(/^[ \t]*export\s*\{([^}]*)\}/gm)) {
    for (const part of m[1]!.split(',')) {
      const n = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (n && /^[A-Za-z_$][\w$]*$/.test(n)) names.add(n);
    }
  }
  if (/^[ \t]*export\s*=/m.test(dts)) names.add('export = (CommonJS)');
  return [...names];
}
