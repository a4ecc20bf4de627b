/**
 * Package-level rules: what the files of a package show together. A shell with no command in one
 * file and an outbound socket in another (a reverse shell), install-time code launching an
 * executable the package ships (a dropper), a lifecycle script running a file with malicious
 * code. They read the evidence gathered from the files and add their findings to it, in order
 * (the last rule sees the findings of the first two).
 */
import { posix } from 'node:path';
import { WARNING_CONFIDENCE } from '../policy/risk-policy';
import { namesDropped } from './js/detectors/chains';
import { finding } from './findings';
import type { JsFileFacts } from './js/analyze';
import { isAgentFile } from './agentic';
import { analyzeScript } from './script-behaviour';
import { analyzeShell, scriptTargets } from './shell';
import { decodeText } from './text';
import type { Finding, PackageFile } from './types';

/** Facts of one code file, for the rules that combine files. */
export type FileFacts = JsFileFacts & { file: string; installTime: boolean };

/** The kind of executable a file's first bytes announce (ELF, PE, Mach-O), if any. */
export function magicKind(buf: Buffer): string | undefined {
  if (buf.length < 4) return undefined;
  const b0 = buf[0]!;
  const b1 = buf[1]!;
  const b2 = buf[2]!;
  const b3 = buf[3]!;
  if (b0 === 0x7f && b1 === 0x45 && b2 === 0x4c && b3 === 0x46) return 'ELF executable';
  if (b0 === 0x4d && b1 === 0x5a && buf.length >= 64) {
    const pe = buf.readUInt32LE(60);
    if (pe + 4 <= buf.length && buf.toString('latin1', pe, pe + 4) === 'PE\0\0')
      return 'Windows PE executable';
  }
  const be = buf.readUInt32BE(0);
  if (be === 0xfeedface || be === 0xfeedfacf || be === 0xcefaedfe || be === 0xcffaedfe)
    return 'Mach-O executable';
  if (be === 0xcafebabe && buf.length >= 8 && buf.readUInt32BE(4) < 30) return 'Mach-O universal binary';
  return undefined;
}

export function packageRules(
  evidence: Finding[],
  ctx: {
    files: PackageFile[];
    byPath: Map<string, PackageFile>;
    fileFacts: FileFacts[];
    /** The package's own modules each analysed file loads (resolved paths). */
    localImports?: (file: string) => readonly string[];
    scripts: { name: string; command: string; line: number }[];
    /** Every script of package.json by name (lifecycle or not), as the install analysis read them. */
    allScripts: Readonly<Record<string, string>>;
  },
): void {
  const { files, byPath, fileFacts, scripts } = ctx;
  agentRunsPackageScript(evidence, files, ctx.allScripts);
  installPatchesDependency(evidence, scripts, byPath);
  walletSwapAcrossFiles(evidence, fileFacts, ctx.localImports);
  // A shell with no command to run, in a package that opens an outbound socket and wires process
  // streams: a reverse shell, also when the socket and the shell sit in different files.
  {
    const shell = fileFacts.find((f) => f.interactiveShell);
    const outbound = fileFacts.find((f) => f.outboundSocket);
    // Or a server socket whose connections get the shell (a bind shell).
    const socket = outbound ?? fileFacts.find((f) => f.listeningSocket);
    const kind = outbound ? 'an outbound socket' : 'the connections of a TCP server it opens';
    const name = outbound ? 'reverse shell' : 'bind shell';
    if (
      shell &&
      socket &&
      fileFacts.some((f) => f.pipesStreams && (f.file === shell.file || f.file === socket.file))
    ) {
      const install = shell.installTime || socket.installTime;
      evidence.push(
        finding({
          threat_type: 'malicious_code',
          rule: 'pkg.reverse-shell',
          message:
            shell.file === socket.file
              ? `starts a shell with no command and connects its streams to ${kind} (${name})`
              : `starts a shell with no command (${shell.file}) and connects its streams to ${kind} opened in ${socket.file} (${name})`,
          file: shell.file,
          line: shell.interactiveShell!,
          snippet: '',
          install_time: install,
          variant: install ? 'install' : undefined,
        }),
      );
    }
  }
  // A file one install step drops (downloaded, or written somewhere hidden or temporary after a
  // fetch) and another install step starts: the dropper split over the package's hooks.
  {
    const steps = fileFacts.filter((f) => f.installTime);
    const fetches = steps.some((f) => f.fetches);
    const verifies = steps.some((f) => f.verifies);
    const hit = verifies
      ? undefined
      : steps
          .flatMap((runner) => (runner.started ?? []).map((st) => ({ runner, st })))
          .flatMap(({ runner, st }) =>
            steps
              .filter((writer) => writer.file !== runner.file)
              .flatMap((writer) =>
                (writer.dropped ?? [])
                  .filter((w) => (w.fromNetwork || fetches) && namesDropped(st.values, w))
                  .map((w) => ({ runner, st, writer, w })),
              ),
          )[0];
    if (hit)
      evidence.push(
        finding({
          threat_type: 'install_script_injection',
          rule: 'js.drop-and-run',
          message: `runs or loads ${hit.w.path.slice(0, 60)}, which ${hit.writer.file} wrote (line ${hit.w.line}) ${hit.w.fromNetwork ? 'from downloaded data' : 'after a download'} in another install step`,
          file: hit.runner.file,
          line: hit.st.line,
          snippet: '',
          install_time: true,
          variant: hit.w.fromNetwork ? 'install' : 'installUnfollowed',
        }),
      );
  }
  // Install-time code that starts a program shipped in the package, detached and silenced: a
  // dropper (the executable is the payload; the JavaScript only launches it).
  const shippedExecutables = files
    .filter((f) => /\.(?:exe|scr|msi|com)$/i.test(f.path) || (f.data.length >= 4 && magicKind(f.data)))
    .map((f) => f.path);
  if (shippedExecutables.length) {
    for (const launch of evidence.filter((e) => e.install_time && e.rule === 'js.silent-detached-process')) {
      const f = byPath.get(launch.file);
      const text = f ? decodeText(f.data).text : '';
      const exe = shippedExecutables.find((x) => text.includes(x.slice(x.lastIndexOf('/') + 1)));
      if (!exe) continue;
      evidence.push(
        finding({
          threat_type: 'install_script_injection',
          rule: 'pkg.install-launches-bundled-binary',
          message: `install-time code starts ${exe}, an executable shipped in the package, detached with its output discarded`,
          file: launch.file,
          line: launch.line,
          snippet: launch.snippet,
          install_time: true,
        }),
      );
      break;
    }
  }
  // Install-time files that carry malicious code make the lifecycle script itself an injection.
  for (const s of scripts) {
    const targets = evidence.filter(
      (f) =>
        f.install_time &&
        'threat_type' in f &&
        f.threat_type === 'malicious_code' &&
        f.confidence >= WARNING_CONFIDENCE &&
        f.file !== 'package.json',
    );
    if (targets.length) {
      const t = targets[0]!;
      evidence.push(
        finding({
          threat_type: 'install_script_injection',
          rule: 'pkg.install-runs-malicious-file',
          message: `the ${s.name} script runs ${t.file}, which contains ${t.message}`,
          file: 'package.json',
          line: s.line,
          snippet: `"${s.name}": "${s.command.slice(0, 100)}"`,
          install_time: true,
          // One step above the malicious finding in the file the script runs.
          from: t.confidence,
          steps: 1,
        }),
      );
      break;
    }
  }
}

/** Install scripts that apply the package's patch files to what npm installed beside it. */
const APPLIES_PATCHES =
  /\bpatch-package\b|\bgit\s+apply\b|(?:^|[;&|(]\s*|\n\s*|do\s+)patch\s+(?:-[-\w=]+\s+)*-p\d/m;

/**
 * An install script applying a patch that gives another package network requests or process
 * starts (`patches/axios+1.7.2.patch` adding a request to a bare IP with the headers it sends):
 * the dependency the user trusts is changed on their disk. Patches that fix a bug add neither.
 */
function installPatchesDependency(
  evidence: Finding[],
  scripts: { name: string; command: string; line: number }[],
  byPath: Map<string, PackageFile>,
): void {
  // (In the hook's command, or in a script of the package it runs: `sh scripts/apply.sh`.)
  const applies = (command: string) =>
    APPLIES_PATCHES.test(command) ||
    scriptTargets(command).some((t) => {
      const f = byPath.get(posix.normalize(t));
      return !!f && !f.truncated && f.size <= 256_000 && APPLIES_PATCHES.test(decodeText(f.data).text);
    });
  const s = scripts.find((x) => applies(x.command));
  if (!s) return;
  const acts = evidence.filter(
    (f) =>
      /\.(?:patch|diff)!\//i.test(f.file) &&
      // (A request to a host the patch writes, or a threat: a fix to a client's request code
      // passes its caller's address along.)
      ('capability' in f
        ? f.capability === 'network' &&
          /\bto\s+(?:[a-z0-9-]+\.)+[a-z]{2,}|\b\d{1,3}(?:\.\d{1,3}){3}\b/i.test(f.message)
        : f.confidence >= 0.5),
  );
  if (!acts.length) return;
  const target = acts[0]!.file.replace(/^.*?!\//, '');
  const what = acts.some((f) => 'threat_type' in f)
    ? `do what malware does (${acts.find((f) => 'threat_type' in f)!.message.slice(0, 80)})`
    : 'send requests to a host the patch names';
  evidence.push(
    finding({
      threat_type: 'install_script_injection',
      rule: 'pkg.install-patches-dependency',
      message: `the ${s.name} script applies a patch that makes another installed package (${target.slice(0, 80)}) ${what}`,
      file: 'package.json',
      line: s.line,
      snippet: `"${s.name}": "${s.command.slice(0, 100)}"`,
      install_time: true,
    }),
  );
}

/**
 * An agent file (CLAUDE.md, AGENTS.md, a skill …) telling the agent to run one of the package's
 * own scripts (`npm run setup:agent`) whose command downloads and runs code or sends data: the
 * instruction looks harmless, the script it names is not.
 */
function agentRunsPackageScript(
  evidence: Finding[],
  files: PackageFile[],
  scripts: Readonly<Record<string, string>>,
): void {
  if (!Object.keys(scripts).length) return;
  for (const f of files) {
    if (!isAgentFile(f.path) || f.data.length > 500_000) continue;
    const text = decodeText(f.data).text;
    for (const m of text.matchAll(
      /\b(?:npm\s+run(?:-script)?|pnpm(?:\s+run)?|yarn(?:\s+run)?|bun\s+run)\s+([\w:.-]+)/g,
    )) {
      const cmd = scripts[m[1]!];
      if (cmd === undefined) continue;
      const bad = [...analyzeShell(cmd, true), ...analyzeScript(cmd, 'sh', true)].find(
        (h) =>
          h.confidence >= WARNING_CONFIDENCE &&
          h.threat_type !== 'social_engineering' &&
          h.rule !== 'script.foreign-file-change',
      );
      if (!bad) continue;
      evidence.push(
        finding({
          threat_type: 'social_engineering',
          rule: 'pkg.agent-runs-package-script',
          message: `${f.path} tells the agent to run the package script "${m[1]}", which ${bad.message.replace(/^(?:install-time )?(?:shell )?script /, '')}`,
          file: f.path,
          line: text.slice(0, m.index).split('\n').length,
          snippet: m[0],
          install_time: false,
        }),
      );
      return;
    }
  }
}

/**
 * A wallet-address swap split over files: the file that intercepts the page's data (a hooked
 * fetch, XHR or wallet provider, the clipboard) reaches the address pattern and the fixed
 * addresses through modules of its own (`import { pools, shapes } from './addresses.js'`, or a
 * normaliser that imports a table), up to three modules deep.
 */
function walletSwapAcrossFiles(
  evidence: Finding[],
  fileFacts: FileFacts[],
  localImports: (file: string) => readonly string[] = () => [],
): void {
  const byFile = new Map(fileFacts.filter((f) => f.wallet).map((f) => [f.file, f.wallet!]));
  const reached = (from: FileFacts, depth: number): string[] => {
    const seen = new Set<string>([from.file]);
    let edge = [...localImports(from.file)];
    for (let d = 0; d < depth && edge.length; d++) {
      const next: string[] = [];
      for (const p of edge) {
        if (seen.has(p) || seen.size > 200) continue;
        seen.add(p);
        next.push(...localImports(p));
      }
      edge = next;
    }
    seen.delete(from.file);
    return [...seen];
  };
  for (const f of fileFacts) {
    const w = f.wallet;
    if (!w || w.intercept === undefined) continue;
    // (An interception every interface makes, text written to the page or the clipboard, a paste
    // read, a class's own `send`, reaches only the modules the file imports itself.)
    const pieces = [
      w,
      ...reached(f, w.common ? 1 : 3)
        .map((p) => byFile.get(p))
        .filter((x) => x !== undefined),
    ];
    const regex = pieces.find((p) => p.regex !== undefined);
    const literal = pieces.find((p) => p.literal !== undefined);
    if ((!regex && !w.providerHook) || !literal || pieces.length < 2) continue;
    evidence.push(
      finding({
        threat_type: 'malicious_code',
        rule: 'js.wallet-address-swap',
        message:
          w.providerHook && !regex
            ? `hooks the wallet provider's ${w.how} and holds fixed addresses in a module it imports: transactions rewritten to them`
            : `intercepts ${w.how ?? 'the page'} with the crypto address pattern and fixed addresses of the modules it imports: an address swapper`,
        file: f.file,
        line: w.intercept,
        snippet: '',
        install_time: f.installTime,
      }),
    );
    return;
  }
}
