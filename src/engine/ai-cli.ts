/**
 * AI coding-agent command-line tools started with their permission checks off, read word by word
 * from a command line: the program past runners (`npx`, `env`, `pnpm dlx`) and shells (`sh -c
 * "…"`), and the flags that turn approvals off. Shared by the shell rules (scripts, workflow
 * steps) and the JavaScript detectors (commands code starts or writes).
 */
/** A shell command string as simple commands of words (quotes removed; approximate, never executed). */
export function commandLines(cmd: string): string[][] {
  const out: string[][] = [];
  for (const part of cmd.slice(0, 20_000).split(/&&|\|\||[;|&\n]/)) {
    const words: string[] = [];
    for (const m of part.matchAll(/"((?:\\.|[^"\\])*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]!);
    if (words.length) out.push(words.slice(0, 200));
    if (out.length > 50) break;
  }
  return out;
}

/** AI coding-agent command-line tools (the program name, or the npm package an npx-style runner starts). */
const AI_CLIS =
  /^(?:claude|claude-code|gemini|gemini-cli|codex|cursor-agent|copilot|q|amp|ampcode|aider|opencode|opencode-ai|qwen|qwen-code|crush|goose|kiro-cli|droid|kimi|auggie|cline|grok)$/i;
/** Flags that only exist to turn an agent's permission checks off (any program). */
const BYPASS_STRONG =
  /^(?:--dangerously-[a-z-]+|--trust-all-tools|--allow-all-tools|--allow-all-paths|--skip-permissions-unsafe|--yes-always|--permission-mode[= ]bypassPermissions|--approval-mode[= ]yolo|--sandbox[= ]danger-full-access)$/i;
/** Flags that bypass permissions when given to an AI CLI. */
const BYPASS_FOR_AI =
  /^(?:--yolo|-y|--force|-f|--full-auto|--auto-approve|--always-approve|-s danger-full-access)$/i;
/**
 * AI CLI names other tools also use (AWS Copilot's `copilot … --force`, `q`, `amp`, `goose` …):
 * only the flags that exist for nothing but turning checks off count for them.
 */
const SHARED_NAME = /^(?:copilot|q|amp|goose|droid|crush|kimi|grok|cline)$/i;
const SHELLS = /^(?:sh|bash|zsh|dash|ksh|cmd|cmd\.exe|powershell|pwsh)$/i;
const RUNNERS = /^(?:npx|bunx|pnpx|dlx|env|nohup|sudo|exec|time|command|start|setsid|script)$/i;

export function aiCliBypass(lines: string[][], depth = 0): { cli: string; flag: string } | undefined {
  for (const words of lines) {
    let i = 0;
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
    // npx/env/nohup … and `pnpm dlx` / `yarn dlx` / `npm exec --`: the program is the next word.
    while (i < words.length) {
      const w = words[i]!;
      if (RUNNERS.test(w) || (/^-/.test(w) && i > 0 && RUNNERS.test(words[i - 1]!))) i++;
      else if (/^(?:pnpm|yarn|npm)$/i.test(w) && /^(?:dlx|exec|x)$/i.test(words[i + 1] ?? '')) i += 2;
      else if (w === '--' || (/^-/.test(w) && i > 0 && /^(?:dlx|exec|x)$/i.test(words[i - 1]!))) i++;
      else break;
    }
    const prog = words[i];
    if (prog === undefined) continue;
    const base = prog
      .replace(/@[\d^~.x*-]+$|@latest$/i, '')
      .split(/[\\/]/)
      .pop()!
      .replace(/\.(?:exe|cmd|js)$/i, '');
    const rest = words.slice(i + 1);
    // sh -c "…" / cmd /c "…": the script is a command line of its own.
    if (SHELLS.test(base) && depth < 2) {
      const c = rest.findIndex((w) => /^(?:-c|\/c|\/C|-Command|-command)$/.test(w));
      if (c >= 0) {
        const inner = aiCliBypass(commandLines(rest.slice(c + 1).join(' ')), depth + 1);
        if (inner) return inner;
      }
      continue;
    }
    const isAi = AI_CLIS.test(base);
    const known = base !== '' && !base.includes('${');
    for (let j = 0; j < rest.length; j++) {
      const w = rest[j]!;
      const pair = /^(?:--permission-mode|--approval-mode|--sandbox|-s)$/i.test(w)
        ? `${w} ${rest[j + 1] ?? ''}`
        : w;
      if (BYPASS_STRONG.test(pair) && (isAi || !known)) return { cli: isAi ? base : 'an AI CLI', flag: pair };
      if (isAi && !SHARED_NAME.test(base) && (BYPASS_FOR_AI.test(w) || BYPASS_FOR_AI.test(pair)))
        return { cli: base, flag: BYPASS_FOR_AI.test(w) ? w : pair };
    }
  }
  return undefined;
}
