/**
 * CMake files a build runs at install (`cmake-js compile` in an install script reads the package's
 * CMakeLists.txt and the modules it includes), turned into the shell lines they amount to, so the
 * script analysis reads them like any install script: `set(V x)` and `string(ASCII … V)` are
 * assignments, `file(DOWNLOAD url dst)` a download, `execute_process(COMMAND …)` and the commands of
 * custom targets commands run. Line numbers are kept. Never run: the text is only read.
 */

const MAX_TEXT = 1_000_000;
const MAX_COMMANDS = 5_000;

const WORD = /[A-Za-z_]\w*/y;
const OPEN = /[ \t]*\(/y;

interface CmakeCommand {
  name: string;
  args: string[];
  line: number;
}

/** The commands of a CMake file, in order: `name(arg "quoted arg" [[bracket]])`, comments skipped. */
export function cmakeCommands(text: string): CmakeCommand[] {
  const out: CmakeCommand[] = [];
  const src = text.slice(0, MAX_TEXT);
  let line = 1;
  let i = 0;
  const n = src.length;
  while (i < n && out.length < MAX_COMMANDS) {
    const ch = src[i]!;
    if (ch === '\n') {
      line++;
      i++;
      continue;
    }
    if (ch === '#') {
      const end = src.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    // (A word is read once: a position inside it is never tried again, so a long one costs its
    // length, not its square.)
    WORD.lastIndex = i;
    const w = /[A-Za-z_]/.test(ch) ? WORD.exec(src) : null;
    if (!w) {
      i++;
      continue;
    }
    OPEN.lastIndex = i + w[0].length;
    const open = OPEN.exec(src);
    if (!open) {
      i += w[0].length;
      continue;
    }
    const name = w[0].toLowerCase();
    const startLine = line;
    const args: string[] = [];
    let cur = '';
    let depth = 0;
    let j = OPEN.lastIndex;
    const flush = () => {
      if (cur) args.push(cur);
      cur = '';
    };
    for (; j < n; j++) {
      const c = src[j]!;
      if (c === '\n') line++;
      if (c === '"') {
        // A quoted argument: one word, backslash escapes kept as the next character.
        let k = j + 1;
        let q = '';
        for (; k < n && src[k] !== '"'; k++) {
          if (src[k] === '\n') line++;
          if (src[k] === '\\' && k + 1 < n) q += src[++k];
          else q += src[k];
        }
        cur += q;
        j = k;
        continue;
      }
      if (c === '[' && /^\[=*\[/.test(src.slice(j, j + 12))) {
        const eq = /^\[(=*)\[/.exec(src.slice(j, j + 12))![1]!;
        const close = src.indexOf(`]${eq}]`, j);
        const end = close < 0 ? n : close;
        const body = src.slice(j + eq.length + 2, end);
        line += body.split('\n').length - 1;
        cur += body;
        j = end + eq.length + 1;
        continue;
      }
      if (c === '#') {
        flush();
        const end = src.indexOf('\n', j);
        j = (end < 0 ? n : end) - 1;
        continue;
      }
      if (c === '(') {
        depth++;
        cur += c;
        continue;
      }
      if (c === ')') {
        if (depth === 0) break;
        depth--;
        cur += c;
        continue;
      }
      if (/\s/.test(c)) {
        flush();
        continue;
      }
      cur += c;
    }
    flush();
    out.push({ name, args, line: startLine });
    i = j + 1;
  }
  return out;
}

/** Keywords that end an `execute_process` / custom command's COMMAND words. */
const COMMAND_END =
  /^(?:COMMAND|WORKING_DIRECTORY|TIMEOUT|RESULT_VARIABLE|RESULTS_VARIABLE|OUTPUT_VARIABLE|ERROR_VARIABLE|INPUT_FILE|OUTPUT_FILE|ERROR_FILE|OUTPUT_QUIET|ERROR_QUIET|COMMAND_ECHO|OUTPUT_STRIP_TRAILING_WHITESPACE|ERROR_STRIP_TRAILING_WHITESPACE|ENCODING|ECHO_OUTPUT_VARIABLE|ECHO_ERROR_VARIABLE|COMMAND_ERROR_IS_FATAL|DEPENDS|BYPRODUCTS|OUTPUT|COMMENT|VERBATIM|USES_TERMINAL|SOURCES|ALL|MAIN_DEPENDENCY|IMPLICIT_DEPENDS|DEPFILE|JOB_POOL|APPEND|COMMAND_EXPAND_LISTS|PRE_BUILD|PRE_LINK|POST_BUILD|TARGET)$/;

/** A shell word for one CMake argument (CMake's `$ENV{X}` is the shell's `$X`). */
function shellWord(a: string): string {
  const w = a
    .replace(/\$ENV\{(\w+)\}/g, '$$$1')
    .replace(/\$\{CMAKE_(?:CURRENT_)?SOURCE_DIR\}/g, '.')
    .replace(/\$\{CMAKE_(?:CURRENT_)?BINARY_DIR\}/g, 'build');
  return /^[\w@%+=:,./${}-]+$/.test(w) ? w : `"${w.replace(/(["\\`])/g, '\\$1')}"`;
}

/** The COMMAND … groups of an `execute_process` or custom command/target, as shell commands. */
function commandGroups(args: string[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < args.length; k++) {
    if (args[k] !== 'COMMAND') continue;
    const words: string[] = [];
    for (k++; k < args.length && !COMMAND_END.test(args[k]!); k++) words.push(shellWord(args[k]!));
    k--;
    if (words.length) out.push(words.join(' '));
  }
  return out;
}

/**
 * The shell text a CMake file amounts to at configure and build time, one shell line per CMake
 * line (empty lines between), with included modules read in where they are included (`include(X)`
 * found as `X.cmake` in the module folders it set, or a path), at most `depth` deep.
 */
export function cmakeAsShell(
  text: string,
  path: string,
  read: (p: string) => string | undefined,
  depth = 0,
  seen: Set<string> = new Set([path]),
  modulePaths: string[] = [],
): { line: number; text: string; file: string }[] {
  const out: { line: number; text: string; file: string }[] = [];
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const here = (p: string) => {
    const rel = p.replace(/\$\{CMAKE_(?:CURRENT_)?(?:SOURCE|LIST)_DIR\}\/?/g, '').replace(/^\.\//, '');
    const parts = (dir ? `${dir}/${rel}` : rel).split('/');
    const norm: string[] = [];
    for (const part of parts) {
      if (part === '..') norm.pop();
      else if (part && part !== '.') norm.push(part);
    }
    return norm.join('/');
  };
  // (The module folders: distinct, at most 16.)
  const addModulePaths = (paths: string[]) => {
    for (const m of paths.slice(0, 64)) {
      const at = here(m);
      if (modulePaths.length < 16 && !modulePaths.includes(at)) modulePaths.push(at);
    }
  };
  let includes = 0;
  for (const c of cmakeCommands(text)) {
    const a = c.args;
    const emit = (t: string) => out.push({ line: c.line, text: t, file: path });
    switch (c.name) {
      case 'set':
        if (a[0] && /^\w+$/.test(a[0]) && a[0] !== 'CMAKE_MODULE_PATH')
          emit(
            `${a[0]}=${shellWord(
              a
                .slice(1)
                .filter((x) => !/^(?:CACHE|PARENT_SCOPE|FORCE)$/.test(x))
                .join(' '),
            )}`,
          );
        if (a[0] === 'CMAKE_MODULE_PATH') addModulePaths(a.slice(1));
        break;
      case 'list':
        if (a[0] === 'APPEND' && a[1] === 'CMAKE_MODULE_PATH') addModulePaths(a.slice(2));
        break;
      case 'string': {
        const op = a[0]?.toUpperCase();
        if (op === 'ASCII' && a.length > 2) {
          // (At most 4,096 characters, built one by one: a spread of many codes overflows the stack.)
          const codes = a.slice(1, -1).slice(0, 4096).map(Number);
          if (codes.every((x) => Number.isInteger(x) && x > 0 && x < 0x110000))
            emit(`${a[a.length - 1]}=${shellWord(codes.map((x) => String.fromCodePoint(x)).join(''))}`);
        } else if (op === 'CONCAT' && a[1]) emit(`${a[1]}=${shellWord(a.slice(2).join(''))}`);
        else if (op === 'APPEND' && a[1]) emit(`${a[1]}=${shellWord(`\${${a[1]}}${a.slice(2).join('')}`)}`);
        break;
      }
      case 'file':
        // (A download pinned to a hash is a verified source archive, not a payload: not read.)
        if (a[0] === 'DOWNLOAD' && a.some((x) => /^EXPECTED_(?:HASH|MD5)$/.test(x))) break;
        if ((a[0] === 'DOWNLOAD' || a[0] === 'UPLOAD') && a[1] && a[2]) {
          emit(
            a[0] === 'DOWNLOAD'
              ? `curl -fsSL -o ${shellWord(a[2])} ${shellWord(a[1])}`
              : `curl -fsSL -T ${shellWord(a[1])} ${shellWord(a[2])}`,
          );
        } else if ((a[0] === 'WRITE' || a[0] === 'APPEND') && a[1])
          emit(
            `printf '%s' ${shellWord(a.slice(2).join(' '))} ${a[0] === 'WRITE' ? '>' : '>>'} ${shellWord(a[1])}`,
          );
        break;
      case 'execute_process':
      case 'add_custom_command':
      case 'add_custom_target': {
        const groups = commandGroups(a);
        // (execute_process pipes its COMMANDs one into the next.)
        if (groups.length) emit(groups.join(c.name === 'execute_process' ? ' | ' : '; '));
        break;
      }
      case 'include': {
        const name = a[0];
        // (At most 64 includes read per file.)
        if (!name || depth >= 3 || ++includes > 64) break;
        const candidates = /[/.]/.test(name)
          ? [here(name)]
          : [...modulePaths.map((m) => `${m}/${name}.cmake`), here(`cmake/${name}.cmake`)];
        const at = candidates.find((p) => !seen.has(p) && read(p) !== undefined);
        if (!at) break;
        seen.add(at);
        out.push(...cmakeAsShell(read(at)!, at, read, depth + 1, seen, modulePaths));
        break;
      }
      case 'add_subdirectory': {
        const sub = a[0] && here(`${a[0]}/CMakeLists.txt`);
        if (!sub || depth >= 3 || seen.has(sub) || read(sub) === undefined) break;
        seen.add(sub);
        out.push(...cmakeAsShell(read(sub)!, sub, read, depth + 1, seen, modulePaths));
        break;
      }
    }
  }
  return out;
}
