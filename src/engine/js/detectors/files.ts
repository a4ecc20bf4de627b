/**
 * File detectors: files read and written as capabilities (paths), and writes that are threats:
 * persistence (autostart entries, launch agents, cron, git hooks that download or send,
 * authorized_keys), shell start-up files, AI agent and editor configuration, code planted in
 * another installed package, shared libraries, and AI CLIs scheduled with their checks off.
 * Destructive writes are in destructive.ts.
 */
import { CRITICAL_CONFIDENCE } from '../../../policy/risk-policy';
import type { ThreatType } from '../../../contract/schemas';
import { scanText } from '../../agentic';
import { AGENT_PERMISSIONS_OFF } from '../../agentic/semantic';

/**
 * Code that sets an agent's permission checks off (`s.permissions.defaultMode =
 * 'bypassPermissions'`, `{ approval_policy: 'never' }`): assigned, not compared (a settings
 * hardener tests for the same words).
 */
/** The settings files of coding agents and of the editor's chat agent. */
const AGENT_SETTINGS_FILE =
  /\.claude\/settings(?:\.local)?\.json$|\.gemini\/settings\.json$|\.vscode\/settings\.json$|\.codex\/config\.toml$/;
const ASSIGNS_PERMISSIONS_OFF =
  /\b(?:defaultMode|permissionMode|mode)["']?\]?\s*(?:(?<![=!<>])=(?!=)|:)\s*["'`]bypassPermissions\b|\bskipDangerousModePermissionPrompt["']?\]?\s*(?:(?<![=!<>])=(?!=)|:)\s*true\b|\bapproval_policy["']?\]?\s*(?:(?<![=!<>])=(?!=)|:)\s*["'`]?never\b|\bsandbox_mode["']?\]?\s*(?:(?<![=!<>])=(?!=)|:)\s*["'`]?danger-full-access\b|\b(?:chat\.tools\.(?:global\.)?)?autoApprove["']?\]?\s*(?:(?<![=!<>])=(?!=)|:)\s*true\b/;
import type { Finding } from '../../types';
import { analyzeScript, newScriptState } from '../../script-behaviour';
import { analyzeWorkflow, isCiWorkflow } from '../../workflows';
import { GIT_HOOK_DIR, analyzeShell } from '../../shell';
import { asString, flatStrings, hasDeepTaint, type AstNode, type Val } from '../values';
import { escapeRegExp } from '../../text';
import { lineOf } from '../ast';
import { destructiveWrite } from './destructive';
import { foreignChange } from './tamper';
import type { Detectors } from './index';
import { commandLines } from '../../ai-cli';
import { aiCliCheck } from './process';

/**
 * An editor tasks file whose tasks only run the project's own package scripts (`type: 'npm'`, or
 * `npm run dev` as the command): nothing downloaded, decoded or written elsewhere.
 */
function runsOnlyPackageScripts(data: string): boolean {
  let doc: unknown;
  try {
    doc = JSON.parse(data.replace(/^\s*\/\/.*$/gm, ''));
  } catch {
    return false;
  }
  const tasks = (doc as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(tasks) || !tasks.length || tasks.length > 20) return false;
  const SAFE_KEY =
    /^(?:label|type|script|command|args|isBackground|problemMatcher|group|detail|runOptions|presentation|path|dependsOn|icon|hide)$/;
  return tasks.every((t: unknown) => {
    const task = t as { type?: unknown; command?: unknown; args?: unknown };
    // (Per-platform commands, `options.env` or `options.shell` can run something else.)
    if (!task || typeof task !== 'object' || Object.keys(task).some((k) => !SAFE_KEY.test(k))) return false;
    if (task.type === 'npm' && task.command === undefined) return true;
    return (
      typeof task.command === 'string' &&
      /^(?:npm|pnpm|yarn|bun)(?:\s+run)?\s+[\w:.-]+$/.test(task.command.trim()) &&
      (task.args === undefined ||
        (Array.isArray(task.args) && task.args.every((a) => /^[\w:.=-]+$/.test(String(a)))))
    );
  });
}

/** A source with its block and line comments blanked (roughly: not inside strings). */
export function withoutComments(text: string): string {
  return text.length > 2_000_000
    ? text
    : text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');
}

/** An OpenSSH public key line (`ssh-ed25519 AAAA…`). */
const SSH_PUBLIC_KEY =
  /\b(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\s+AAAA[0-9A-Za-z+/]{40,}/;
/**
 * Install folders of other applications and editor extensions (and the Discord client's core
 * module, wherever its versioned folder sits: the file Discord token stealers patch).
 */
const APP_CODE =
  /\.app\/Contents\/Resources\/|\/resources\/app(?:\.asar)?(?:\/|$)|\/AppData\/Local\/Programs\/|\/AppData\/(?:Local|Roaming)\/[^/]+\/(?:[^/]+\/)?(?:modules|resources)\/|\/\.config\/[^/]+\/(?:[^/]+\/)?(?:modules|resources)\/|\/Library\/Application Support\/[^/]+\/(?:[^/]+\/)?(?:modules|resources)\/|\/Program Files(?: \(x86\))?\/|\/\.(?:vscode|cursor|windsurf|vscode-insiders)\/extensions\/|\/opt\/[^/]+\/resources\/|\/discord_desktop_core\//i;

/**
 * The script a written file will run later, when the file is one that something runs by itself:
 * a shell start-up file, a git hook, a crontab, a systemd unit or desktop entry (their Exec
 * lines), a launch agent (its program arguments), a file in a startup folder, or any file
 * written with a shell shebang. Undefined when the file is none of these.
 */
export function plantedScript(
  p: string,
  data: string,
): { text: string; dialect: 'sh' | 'batch' | 'powershell' | 'python' } | undefined {
  const path = p.replace(/\\/g, '/');
  // Python runs the `import` lines of every .pth file in site-packages, and sitecustomize.py, at
  // each start.
  if (/\.pth$/i.test(path) && /^import\s/m.test(data))
    return {
      text: data
        .split('\n')
        .filter((l) => /^import\s/.test(l))
        .flatMap((l) => l.split(';').map((x) => x.trim()))
        .join('\n'),
      dialect: 'python',
    };
  if (/(?:^|\/)(?:sitecustomize|usercustomize)\.py$/i.test(path)) return { text: data, dialect: 'python' };
  if (/^#!\s*\S*\b(?:ba|z|da|k)?sh\b/.test(data)) return { text: data, dialect: 'sh' };
  if (
    /(?:^|\/)\.(?:bashrc|zshrc|bash_profile|bash_login|profile|zprofile|zshenv|kshrc)$|(?:^|\/)\.ssh\/rc$|\/etc\/(?:profile\.d\/|rc\.local$|ssh\/sshrc$)|(?:^|\/)(?:\.git\/)?hooks\/(?:pre|post)-[\w-]+$/i.test(
      path,
    )
  )
    return { text: data, dialect: 'sh' };
  if (/\/(?:cron\.d|crontabs?)\/|\/etc\/crontab$|\/var\/spool\/cron\//i.test(path))
    return {
      text: data
        .split('\n')
        .map((l) => l.replace(/^\s*(?:@\w+|(?:\S+\s+){5}(?:root\s+)?)/, ''))
        .join('\n'),
      dialect: 'sh',
    };
  if (/\.(?:service|desktop)$/i.test(path))
    return {
      text: [...data.matchAll(/^\s*Exec(?:Start(?:Pre|Post)?)?\s*=\s*[-@+!]*(.+)$/gm)]
        .map((m) => m[1])
        .join('\n'),
      dialect: 'sh',
    };
  if (/Library\/Launch(?:Agents|Daemons)\/[^/]+\.plist$/i.test(path)) {
    const args = /<key>\s*ProgramArguments\s*<\/key>\s*<array>([\s\S]*?)<\/array>/i.exec(data)?.[1] ?? '';
    const items = [...args.matchAll(/<string>([^<]*)<\/string>/g)].map((m) => m[1]!);
    const c = items.findIndex((x) => /^-c$/.test(x));
    return { text: c >= 0 ? (items[c + 1] ?? '') : items.map((x) => `"${x}"`).join(' '), dialect: 'sh' };
  }
  if (/Start Menu\/Programs\/Startup\/[^/]+\.(?:bat|cmd)$/i.test(path))
    return { text: data, dialect: 'batch' };
  if (/Start Menu\/Programs\/Startup\/[^/]+\.ps1$/i.test(path)) return { text: data, dialect: 'powershell' };
  return undefined;
}

function addPath(d: Detectors, p: string | undefined): void {
  if (p !== undefined && !/^\$\{…\}$/.test(p)) d.caps.addPath(p);
}

export function read(d: Detectors, node: AstNode, method: string, p: string | undefined): void {
  addPath(d, p);
  d.caps.reads = true;
  d.capability('filesystem', 'js.fs-read', node, `reads files (fs.${method}${p ? ` ${p}` : ''})`);
}

/** `fs.exists`, `fs.stat`, `fs.open` …: a path looked at. */
export function stat(d: Detectors, p: string | undefined): void {
  addPath(d, p);
  d.caps.reads = true;
}

/** Configuration of npm, yarn, pip and git. */
const REGISTRY_CONFIG = /(?:^|\/)(?:\.npmrc|\.yarnrc(?:\.yml)?|\.gitconfig|pip\.conf|pip\.ini|\.pypirc)$/i;
/** Configuration lines that make the tool start code each time it runs. */
const CONFIG_RUNS_CODE =
  /^\s*(?:node-options\s*=[^\n]*(?:--require|-r|--import|--loader)\b[^\n]*|script-shell\s*=\s*\S[^\n]*|yarnPath\s*:\s*["']?(?:\/|~|[A-Za-z]:\\|\$)[^\n]*|(?:fsmonitor|sshCommand)\s*=\s*\S[^\n]*)$/im;

/** Instruction files coding agents read from a project. */
const AGENT_INSTRUCTIONS =
  /(?:^|\/)(?:\.cursor\/rules\/[^/]+|\.cursorrules|\.windsurfrules|\.clinerules(?:\/[^/]+)?|CLAUDE\.md|AGENTS\.md|GEMINI\.md|\.github\/copilot-instructions\.md|\.github\/instructions\/[^/]+|\.roo\/rules[^/]*\/[^/]+|\.kiro\/steering\/[^/]+|\.windsurf\/rules\/[^/]+)$/i;

/** A bin folder on PATH, and a file in it named like a command people type every day. */
const PATH_SHIM =
  /(?:^|\/)(?:usr\/(?:local\/)?bin|\.local\/bin|opt\/homebrew\/bin|AppData\/Roaming\/npm|\$npm_config_prefix\/bin)\/(?:git|node|npm|npx|yarn|pnpm|python3?|pip3?|ssh|scp|sudo|su|ls|cd|cat|curl|wget|docker|kubectl|aws|gh|code|bash|sh|zsh)(?:\.(?:cmd|exe|bat|ps1))?$/i;

/**
 * What a written file holds, for the commands the code starts later (one script state): a script
 * with text known here is read whole when a command runs it (`fs.writeFileSync(tmp + '.ps1', PS)`
 * then `powershell -File`), and a file given the environment or secrets is one whose upload is
 * exfiltration (`curl --data-binary @tmp`).
 */
function rememberForCommands(
  d: Detectors,
  method: string,
  p: string | undefined,
  data: Val | undefined,
): void {
  if (!p || !/^(?:writeFile|writeFileSync|appendFile|appendFileSync|outputFile|outputFileSync)$/.test(method))
    return;
  const name = p.replace(/\\/g, '/').split('/').pop() ?? '';
  const text = asString(data);
  const ext = /\.(ps1|sh|bash|bat|cmd|py)$/i.exec(p)?.[1]?.toLowerCase();
  if (ext && text && text.length >= 20 && d.writtenScripts.size < 20) {
    const dialect =
      ext === 'ps1'
        ? 'powershell'
        : ext === 'bat' || ext === 'cmd'
          ? 'batch'
          : ext === 'py'
            ? 'python'
            : 'sh';
    d.writtenScripts.set(name.includes('${…}') ? `*.${ext}` : name, {
      text: text.slice(0, 200_000),
      dialect,
    });
  }
  const env = hasDeepTaint(data, 'env_all');
  if (
    name &&
    !name.includes('${…}') &&
    (env || hasDeepTaint(data, 'secret_file') || hasDeepTaint(data, 'secret_env'))
  ) {
    d.spawnedScript ??= newScriptState();
    (d.spawnedScript.secretFiles ??= new Map()).set(
      name,
      env ? 'the environment' : 'credential files or secret variables',
    );
  }
}

/**
 * `registry=https://host/…` and `//host/…:_authToken=` for the same host, in a written npmrc, when
 * the code did not read the token for that host (`/\/\/host\/:_authToken=(.+)/` in its source:
 * the user's own token kept where it belongs).
 */
function tokenForNamedRegistry(data: string, source: string): boolean {
  const registry = /\bregistry\s*=\s*["']?\w+:\/\/([^/\s"':]+)/.exec(data)?.[1];
  return (
    !!registry &&
    data.includes(`//${registry}`) &&
    new RegExp(`//${escapeRegExp(registry)}[^\\s]*:_authToken\\s*=`).test(data) &&
    !(registry.includes('.') && source.includes(escapeRegExp(registry)))
  );
}

/**
 * The whole environment (every variable, tokens included) written into a file: in CI, a file
 * in the job's output is uploaded as an artifact anyone with read access can download (the
 * ArtiPACKED leak), or committed. Tucked into a hidden file or folder, it is meant not to be
 * noticed. (`.env` files a tool writes from chosen variables are its configuration.)
 */
function envToFile(
  d: Detectors,
  node: AstNode,
  method: string,
  p: string | undefined,
  data: Val | undefined,
): void {
  if (
    !p ||
    !/^(?:writeFile|writeFileSync|appendFile|appendFileSync|outputFile|outputFileSync|outputJson|outputJsonSync|writeJson|writeJsonSync)$/.test(
      method,
    )
  )
    return;
  if (!hasDeepTaint(data, 'env_all')) return;
  const parts = p.replace(/\\/g, '/').split('/');
  if (/^\.env(?:\.|$)/.test(parts.at(-1) ?? '')) return;
  // Hidden in the project or its output, where CI picks files up: not a tool's own state under
  // the home folder or the temporary folder, nor a build cache.
  const hidden =
    !/^(?:~|\$HOME|\$TMPDIR|%(?:USERPROFILE|TEMP|TMP|APPDATA)%)/i.test(p) &&
    parts.some(
      (x) =>
        /^\.[\w-]/.test(x) &&
        !/^\.(?:cache|next|nuxt|turbo|parcel-cache|vite|svelte-kit|angular|yarn|pnpm-store|npm|git|idea|vscode)$/i.test(
          x,
        ),
    );
  d.threat(
    'js.env-to-file',
    'data_exfiltration',
    node,
    `writes the whole environment (every variable, tokens included) into ${hidden ? 'a hidden file' : 'a file'} ${p.slice(0, 60)}`,
    hidden ? 'hidden' : undefined,
  );
}

export function write(
  d: Detectors,
  node: AstNode,
  method: string,
  p: string | undefined,
  a0: Val | undefined,
  args: Val[],
): void {
  addPath(d, p);
  d.caps.writes = true;
  rememberForCommands(d, method, p, args[1]);
  d.capability('filesystem', 'js.fs-write', node, `writes files (fs.${method}${p ? ` ${p}` : ''})`);
  // Whatever the change is for, a file the package does not own changed unprompted (tamper.ts).
  const dest =
    /^(?:copy|copySync|copyFile|copyFileSync|cp|cpSync|move|moveSync|rename|renameSync|symlink|symlinkSync|link|linkSync)$/.test(
      method,
    )
      ? args[1]
      : a0;
  foreignChange(d, node, method, dest);
  if (dest !== a0 && /^(?:move|moveSync|rename|renameSync)$/.test(method)) foreignChange(d, node, method, a0);
  // Git hooks planted in every repository found under the user's home: each commit runs them.
  if (
    p &&
    a0?.t?.has('user_listing') &&
    /(?:^|\/)hooks\/(?:pre-commit|prepare-commit-msg|commit-msg|post-commit|pre-push|post-checkout|post-merge|pre-rebase|post-rewrite)$/.test(
      p.replace(/\\/g, '/'),
    )
  ) {
    d.threat(
      'js.write-persistence',
      d.installTime ? 'install_script_injection' : 'malicious_code',
      node,
      `writes git hook ${p.slice(0, 60)} into repositories it lists in the user's home (runs on their every commit)`,
      'gitHook',
    );
    return;
  }
  envToFile(d, node, method, p, args[1]);
  destructiveWrite(d, node, method, p, a0, args);
  // (A copy writes its destination: a library built by cargo copied next to the package as its
  // `.node` addon plants nothing.)
  const written = dest === a0 ? p : asString(dest);
  if (written && /\.(?:so|dll|dylib)$/i.test(written)) {
    d.threat(
      'js.write-shared-library',
      'malicious_code',
      node,
      `writes a shared library file ${written} (library planting)`,
    );
  }
  if (
    p &&
    /Library\/LaunchAgents\/|\.config\/(?:systemd\/user|autostart)\/|Start Menu[\\/]Programs[\\/]Startup|\.ssh\/authorized_keys2?$|^\/etc\/(?:cron|systemd\/system|rc\.local|profile\.d|ld\.so\.preload$)|\/var\/spool\/cron/i.test(
      p.replace(/\\/g, '/'),
    )
  ) {
    // A public key written in the package put into the user's authorized_keys: whoever holds
    // the private half logs in, whoever called the function (key managers add the keys their
    // user gives them).
    const keyInCode =
      /\.ssh\/authorized_keys2?$/.test(p.replace(/\\/g, '/')) &&
      (SSH_PUBLIC_KEY.test(args[1] ? flatStrings(args[1]).join('\n') : '') ||
        // (In the code, not in a comment: a JSDoc `@example` shows a key the caller would pass.)
        SSH_PUBLIC_KEY.test(withoutComments(d.input.text)));
    d.threat(
      'js.write-persistence',
      d.installTime ? 'install_script_injection' : 'malicious_code',
      node,
      keyInCode
        ? `writes ${p.slice(0, 80)} with an SSH public key written in the package: whoever holds its private key can log in`
        : `writes ${p.slice(0, 80)}: code that runs again later (autostart, scheduled job, git hook) or a key that lets someone in`,
      // In a function nobody calls at install or load (a launch-at-login helper's `enable()`),
      // it is what the caller asks for: weighed below a warning (what the entry runs is planted
      // code, read by the script rules above).
      d.install ?? (keyInCode ? 'plantedKey' : d.dormant > 0 ? 'onRequest' : undefined),
    );
  }
  // A program named like a common command (git, node, sudo, ssh …) written by install-time code
  // into a folder on PATH: it runs in place of the real one every time the user types it.
  if (d.installTime && p && !a0?.t?.has('own_dir') && PATH_SHIM.test(p.replace(/\\/g, '/'))) {
    d.threat(
      'js.write-persistence',
      'install_script_injection',
      node,
      `writes ${p.slice(0, 80)}: a program named like a common command in a folder on PATH, run instead of the real one`,
      d.install,
    );
  }
  const data = args[1] ? flatStrings(args[1]).join('\n') : '';
  // A script planted where something runs it later: what it will do is read by the script rules
  // and reported under their ids (download and run, secrets sent …), with where it was planted.
  const planted = p && data ? plantedScript(p, data) : undefined;
  if (planted?.text.trim()) {
    const text = planted.text.slice(0, 200_000);
    // (The line rules too: `curl … | sh` in a script launchd or cron runs every half hour.)
    const hit = [
      ...analyzeScript(text, planted.dialect, d.installTime),
      ...(planted.dialect === 'python' ? [] : analyzeShell(text, d.installTime)),
    ].find((h) => h.confidence >= CRITICAL_CONFIDENCE && h.rule !== 'script.persistence');
    if (hit)
      d.threat(
        hit.rule,
        hit.threat_type === 'install_script_injection' && !d.installTime ? 'malicious_code' : hit.threat_type,
        node,
        `writes ${p!.slice(0, 60)}, to run later, where it ${hit.message}`,
        {
          variant: hit.variant,
          steps: 'steps' in hit ? hit.steps : undefined,
        } as never,
      );
  }
  // A CI workflow written into a repository: its steps read as a shipped workflow's are.
  if (p && data && isCiWorkflow(p.replace(/\\/g, '/'))) {
    const hit = analyzeWorkflow(data.slice(0, 200_000), p).find((h) => h.confidence >= CRITICAL_CONFIDENCE);
    if (hit)
      d.threat(
        hit.rule,
        hit.threat_type,
        node,
        `writes CI workflow ${p.slice(0, 60)} where ${hit.message.replace(/^a shipped CI workflow /, 'a step ')}`,
        {
          variant: hit.variant,
        } as never,
      );
  }
  // Code written into another installed package (a worm spreading through node_modules):
  // what is written runs processes, reaches the network or evaluates code.
  // Another package is a path under node_modules, or one reached by climbing out of this
  // package's folder or listing the folder above it; what is planted there is code that loads,
  // runs or fetches something.
  const otherPackage =
    (p !== undefined &&
      /(?:^|\/)node_modules\/(?!\.cache\/|\.vite\/)[^/]+\/.*\.(?:[cm]?js|json)$/.test(
        p.replace(/\\/g, '/'),
      )) ||
    ((a0?.t?.has('outside_pkg') || a0?.t?.has('user_listing')) &&
      /^(?:appendFile|appendFileSync|writeFile|writeFileSync|outputFile|outputFileSync)$/.test(method) &&
      (p === undefined || !/\.(?:md|txt|log|lock)$/i.test(p)));
  if (
    (otherPackage &&
      /require\s*\(\s*['"](?:node:)?(?:child_process|https?|net)['"]|\beval\s*\(|new Function\s*\(|\bfetch\s*\(|"(?:pre|post)?install"\s*:/.test(
        data,
      )) ||
    (otherPackage &&
      (a0?.t?.has('outside_pkg') || a0?.t?.has('user_listing')) &&
      /\brequire\s*\(|\bimport\s*\(|\bimport\s+[\w{*]/.test(data))
  ) {
    d.threat(
      'js.infect-installed-package',
      d.installTime ? 'install_script_injection' : 'malicious_code',
      node,
      `writes code that runs processes, reaches the network or adds an install hook into another installed package (${(p ?? 'a listed file').slice(0, 60)})`,
    );
  }
  // Other projects' package.json rewritten to depend on this package or to run an install hook:
  // a worm spreading through the projects it finds (version bumpers change versions, not these).
  if (
    p !== undefined &&
    /(?:^|[\\/])package\.json$/.test(p) &&
    (a0?.t?.has('user_listing') || a0?.t?.has('outside_pkg')) &&
    /^(?:writeFile|writeFileSync|outputFile|outputFileSync|outputJson|outputJsonSync|writeJson|writeJsonSync)$/.test(
      method,
    )
  ) {
    const own = d.input.modules?.packageName;
    const text = d.input.text;
    // Its own name: written as a literal, or read back (`require('./package.json').name`, the
    // `npm_package_name` npm sets for install scripts).
    const addsSelf =
      (own !== undefined && own.length > 2 && (text.includes(`'${own}'`) || text.includes(`"${own}"`))) ||
      /require\(\s*['"]\.{1,2}\/(?:\.\.\/)*package(?:\.json)?['"]\s*\)\.name\b|\bnpm_package_name\b/.test(
        text,
      );
    const addsHook =
      /\.scripts\b[^;\n]{0,80}\b(?:pre|post)?install\b|\bscripts\s*(?:=|:)\s*\{[^}]{0,200}\b(?:pre|post)?install\s*:/.test(
        text,
      );
    if (addsSelf || addsHook)
      d.threat(
        'js.infect-installed-package',
        d.installTime ? 'install_script_injection' : 'malicious_code',
        node,
        `rewrites the package.json of projects it finds to ${addsHook ? 'run an install hook' : 'depend on this package'} (${p.slice(0, 60)})`,
      );
  }
  // A git hook is how simple-git-hooks and husky work; one that downloads, sends or destroys is
  // not. A hook copied from a file of the package is judged by that file.
  const hookAt = dest !== a0 ? (asString(dest) ?? (dest?.k === 'str' ? dest.v : undefined)) : p;
  const hookPath = hookAt?.replace(/\\/g, '/');
  if (hookPath && GIT_HOOK_DIR.test(hookPath) && /\/[^/]+$/.test(hookPath)) {
    const copied =
      dest !== a0 && p && a0?.t?.has('own_dir')
        ? d.input.modules?.resolve(d.input.path, `./${p.replace(/^\$\{…\}\/?/, '')}`)?.text
        : undefined;
    const body = copied ?? (dest === a0 && args[1] ? flatStrings(args[1]).join('\n') : '');
    // What the hook runs later, unprompted: the package's own programs it names are read as code
    // that runs without the user asking (index.ts, plantHook).
    if (body && d.unprompted && (d.facts.planted ??= []).length < 20)
      d.facts.planted.push({ text: body.slice(0, 16_384), line: lineOf(node) });
    const bad = body
      ? analyzeScript(body, 'sh', true).find(
          (h) => h.confidence >= CRITICAL_CONFIDENCE && h.rule !== 'script.persistence',
        )
      : undefined;
    if (bad)
      d.threat(
        'js.write-persistence',
        d.installTime ? 'install_script_injection' : 'malicious_code',
        node,
        `writes git hook ${hookPath.slice(0, 60)} that ${bad.message}`,
        'gitHook',
      );
  }
  // Another application's own code (an editor's main.js, an Electron app's resources, an
  // extension): patched, it runs whenever that application starts. A copy or rename is judged by
  // where it lands (`rename(archive + '.tmp', archive)` replaces the archive).
  const landed = dest !== a0 ? (asString(dest) ?? (dest?.k === 'str' ? dest.v : undefined)) : p;
  if (landed && APP_CODE.test(landed.replace(/\\/g, '/')) && /\.(?:[cm]?js|asar|json)$/i.test(landed)) {
    d.threat(
      'js.patch-application',
      d.installTime ? 'install_script_injection' : 'malicious_code',
      node,
      `overwrites another application's code (${landed.slice(0, 80)})`,
      d.install,
    );
  }
  if (p && /(?:^|\/)\.(?:bashrc|zshrc|bash_profile|profile)$/.test(p)) {
    // Written while installing or loading, a start-up file is persistence. Written by a function
    // the user calls (`tool init`, `pnpm setup`), it is how shell integrations are added, unless
    // what it adds downloads, sends or starts a shell elsewhere.
    const onRequest =
      !d.unprompted &&
      !(data && analyzeScript(data, 'sh', false).some((h) => h.confidence >= CRITICAL_CONFIDENCE));
    d.threat(
      'js.write-shell-rc',
      d.installTime ? 'install_script_injection' : 'malicious_code',
      node,
      `writes shell start-up file ${p}`,
      d.install ?? (onRequest ? 'onRequest' : undefined),
    );
  }
  // Package-manager and git settings that run code on every later use: npm's node-options
  // (`--require x.js`) and script-shell, yarn's yarnPath, git's fsmonitor and sshCommand.
  const runsLater = p && REGISTRY_CONFIG.test(p.replace(/\\/g, '/')) ? CONFIG_RUNS_CODE.exec(data) : null;
  if (runsLater)
    d.threat(
      'js.write-persistence',
      d.installTime ? 'install_script_injection' : 'malicious_code',
      node,
      `writes ${p!.slice(0, 60)} so that every later npm, yarn or git run starts code (${runsLater[0].trim().slice(0, 60)})`,
      d.install,
    );
  // Settings written unprompted that make later processes load code: NODE_OPTIONS with --require
  // or --import (an editor's terminal env, a profile), LD_PRELOAD, PYTHONSTARTUP, BASH_ENV.
  const loadsCode =
    d.unprompted && data
      ? /NODE_OPTIONS["']?\s*[:=]\s*["']?[^"'\n]*(?:--require|--import|--loader|-r)\s|\b(?:LD_PRELOAD|PYTHONSTARTUP|BASH_ENV)["']?\s*[:=]\s*["']?[~/$\w]/.exec(
          data,
        )
      : null;
  if (loadsCode && p && !REGISTRY_CONFIG.test(p.replace(/\\/g, '/')))
    d.threat(
      'js.write-persistence',
      d.installTime ? 'install_script_injection' : 'malicious_code',
      node,
      `writes ${p.slice(0, 60)} so that later processes load code (${loadsCode[0].trim().slice(0, 60)})`,
      d.install,
    );
  // Package-manager and git configuration pointed elsewhere: every later install or clone of the
  // user's goes through the attacker's mirror.
  if (
    p &&
    REGISTRY_CONFIG.test(p.replace(/\\/g, '/')) &&
    /\bregistry\s*=|npmRegistryServer\s*:|strict-ssl\s*=\s*false|insteadOf\b|index-url\s*=|unsafeHttpWhitelist/i.test(
      data,
    )
  ) {
    // (The user's token, from the environment or their config, written for the registry it names.)
    // (Into the user's own config, not a CI action's project config for its registry.)
    const token =
      /(?:^|\/)(?:~|\$HOME)\/\.(?:npmrc|yarnrc(?:\.yml)?)$/.test(p.replace(/\\/g, '/')) &&
      !d.input.modules?.ciAction &&
      /_authToken\s*=|npmAuthToken\s*:/.test(data) &&
      (hasDeepTaint(args[1], 'secret_env') ||
        // (A token read from the config itself counts when it is written for the registry the
        // file now names: a registry switcher rewriting the file keeps each token's own host.)
        (hasDeepTaint(args[1], 'secret_file') && tokenForNamedRegistry(data, d.input.text)));
    d.threat(
      'js.write-registry-config',
      token ? 'data_exfiltration' : d.installTime ? 'install_script_injection' : 'social_engineering',
      node,
      `writes ${p.slice(0, 60)} to send installs or clones through another registry or mirror${token ? ", with the user's token for it" : ''}`,
      token ? 'token' : d.install,
    );
  }
  // Instructions for coding agents written into a project (CLAUDE.md, AGENTS.md, Cursor rules …):
  // what they say is read as an agent file; what the agent rules flag is the injection itself.
  if (p && AGENT_INSTRUCTIONS.test(p.replace(/\\/g, '/'))) {
    const flagged = data
      ? scanText({ path: p, text: data.slice(0, 200_000), context: 'agent_file', installTime: d.installTime })
          .filter(
            (f): f is Finding & { threat_type: ThreatType } => 'threat_type' in f && f.confidence >= 0.5,
          )
          .sort((x, y) => y.confidence - x.confidence)[0]
      : undefined;
    if (flagged || d.installTime)
      d.threat(
        'js.write-agent-config',
        d.installTime ? 'install_script_injection' : flagged!.threat_type,
        node,
        flagged
          ? `writes agent instructions ${p.slice(0, 60)} that ${flagged.message.replace(/^(?:text\s+)?/, '')}`
          : `writes agent instructions ${p.slice(0, 60)} while the package installs`,
        flagged ? 'injected' : 'install',
      );
    return;
  }
  // (What an agent reads from its folder: settings, commands, sub-agents, skills, hooks; not the
  // logs or caches a tool keeps there.)
  if (
    p &&
    /\.claude\/(?!(?:logs?|cache|tmp|state|sessions?)(?:\/|$)|[^/]*\.(?:log|jsonl)$)|\.cursor\/mcp\.json|\.vscode\/(?:tasks|settings)\.json|\.gemini\/settings\.json|\.codex\/config\.toml|\.github\/workflows\//.test(
      p,
    )
  ) {
    // Editor settings and tasks are written by ordinary migration and setup tools at run time;
    // a task that runs itself when the folder is opened is how fake-project loaders persist.
    const autoRun = /folderOpen/.test(data);
    const editorOnly = /\.vscode\//.test(p) && !autoRun;
    // A CI workflow whose text is known here is judged by what it does; configuration a tool
    // writes when its user runs it (a project scaffolder's `create`), with nothing downloaded,
    // decoded or secret in it, is the scaffold, not an attack.
    const workflow =
      /\.github\/workflows\/[^/]+\.ya?ml$/i.test(p) && data ? analyzeWorkflow(data, p)[0] : undefined;
    const written = args[1];
    // An agent's own settings written with its permission checks off (bypass mode, the
    // dangerous-mode prompt skipped, every tool auto-approved): from then on it acts unasked.
    // (What is written, or the file's text when the document was built up out of sight.)
    const permissionsOff =
      AGENT_SETTINGS_FILE.test(p) &&
      // (Data known only as placeholders, `JSON.stringify(next) + '\n'`, is read as not known.)
      (data && !/^(?:\$\{…\}|\s)*$/.test(data)
        ? AGENT_PERMISSIONS_OFF.test(data)
        : ASSIGNS_PERMISSIONS_OFF.test(d.input.text));
    if (permissionsOff) {
      d.threat(
        'js.write-agent-config',
        d.installTime ? 'install_script_injection' : 'instruction_override',
        node,
        `writes ${p.slice(0, 60)} with the agent's permission checks turned off (bypass mode or auto-approval)`,
        d.installTime ? 'install' : 'permissionsOff',
      );
      return;
    }
    // (A task that starts the project's own dev script when the folder opens, written by a
    // scaffolder its user runs with the option for it, is the scaffold too.)
    const scaffold =
      !d.installTime &&
      !d.unprompted &&
      (!autoRun || runsOnlyPackageScripts(data)) &&
      !workflow &&
      !(['network_data', 'decoded', 'env_all', 'secret_env', 'secret_file'] as const).some((t) =>
        hasDeepTaint(written, t),
      );
    if (!scaffold)
      d.threat(
        'js.write-agent-config',
        d.installTime ? 'install_script_injection' : 'malicious_code',
        node,
        workflow
          ? `writes CI workflow ${p.slice(0, 60)} that ${workflow.message}`
          : `writes ${autoRun ? 'an editor task that runs when the folder is opened' : 'agent/CI configuration'} ${p}`,
        d.installTime
          ? 'install'
          : workflow
            ? 'injected'
            : autoRun
              ? 'autorunTask'
              : editorOnly
                ? 'editorSettings'
                : undefined,
      );
  }
  if (data) aiCliCheck(d, node, commandLines(data), 'writes');
}
