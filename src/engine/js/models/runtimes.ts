/**
 * API model: the Bun and Deno runtimes' own APIs, read as the Node APIs they stand for. A package
 * can run under either (`bun index.js` in a lifecycle script, or code that checks
 * `typeof Bun !== 'undefined'`) and reach processes, files and the environment without
 * child_process, fs or process.env:
 * - processes: `Bun.spawn([cmd, …args])`, `Bun.spawnSync({ cmd })`, `new Deno.Command(cmd, { args })`,
 *   `Deno.run({ cmd })`: a program and its argument list, as `spawn` takes them;
 * - files: `Bun.file(path)` (then `.text()`, `.json()` …), `Bun.write(path, data)`,
 *   `Deno.readTextFile(path)`, `Deno.writeTextFile(path, data)` and their byte and sync forms;
 * - the environment: `Bun.env`, `Deno.env.get(name)` and `Deno.env.toObject()`; host facts:
 *   `Deno.hostname()`, `Deno.cwd()`, `Deno.osRelease()`, `Deno.networkInterfaces()`.
 * The shell of `Bun.$` (a tagged template) is read in the evaluator, where the template is.
 */
import { userCall } from '../calls';
import type { Evaluator } from '../evaluator';
import { UNKNOWN, asString, str, withTaint, type Val } from '../values';
import { envMember, osApi } from './os-env';
import { fsApi } from './fs';
import { processApi } from './process';
import type { ApiCall } from './model';

const DENO_READ = /^(?:readTextFile|readTextFileSync|readFile|readFileSync)$/;
const DENO_WRITE = /^(?:writeTextFile|writeTextFileSync|writeFile|writeFileSync)$/;

/** `c` made again as a call of a Node API (`fs.readFileSync(p)`), given to that API's model. */
function asNode(
  ev: Evaluator,
  c: ApiCall,
  mod: string,
  method: string,
  args: Val[] = c.args,
): Val | undefined {
  const model = mod === 'fs' ? fsApi : mod === 'child_process' ? processApi : osApi;
  return model(ev, {
    ...c,
    callee: { k: 'api', mod, path: method },
    mod,
    path: method,
    method,
    args,
    a0: args[0],
    s0: asString(args[0]),
  });
}

/** A call of a Bun or Deno API, as the Node call it stands for; undefined for other calls. */
export function runtimeApi(ev: Evaluator, c: ApiCall): Val | undefined {
  if (c.mod !== 'global:Bun' && c.mod !== 'global:Deno') return undefined;
  const as = (mod: string, method: string, args: Val[]) => asNode(ev, c, mod, method, args);
  const spawnArgv = (argv: Val | undefined, options: Val | undefined): Val | undefined => {
    if (argv?.k !== 'arr' || !argv.items.length) return undefined;
    return as('child_process', 'spawn', [
      argv.items[0]!,
      { k: 'arr', items: argv.items.slice(1) },
      options ?? UNKNOWN,
    ]);
  };
  if (c.mod === 'global:Bun') {
    if (c.path === 'spawn' || c.path === 'spawnSync') {
      const o = c.a0?.k === 'obj' ? c.a0 : undefined;
      spawnArgv(o ? o.props.get('cmd') : c.a0, o ?? c.args[1]);
      return UNKNOWN;
    }
    // `Bun.connect({ hostname, port, socket: { open(s), data(s, buf) } })`: a TCP connection whose
    // handlers get the socket and what the peer sends (as net.connect and its 'data' events).
    if (c.path === 'connect' && c.a0?.k === 'obj') {
      const socket = as('net', 'connect', [c.a0]) ?? UNKNOWN;
      const handlers = c.a0.props.get('socket');
      if (handlers?.k === 'obj')
        for (const [name, fn] of handlers.props)
          if (fn.k === 'fn' && /^(?:open|data|drain)$/.test(name))
            userCall(
              ev,
              c.node,
              fn,
              [socket, withTaint({ k: 'unknown' }, [], 'network_data')],
              c.scope,
              c.depth,
              undefined,
              false,
            );
      return socket;
    }
    if (c.path === 'file') return { k: 'api', mod: 'bunfile', path: asString(c.a0) ?? '' };
    if (c.path === 'write' && c.a0) return as('fs', 'writeFile', [c.a0, c.args[1] ?? UNKNOWN]);
    return undefined;
  }
  // Deno.
  if (c.path === 'Command' && c.a0) {
    const o = c.args[1]?.k === 'obj' ? c.args[1] : undefined;
    const rest = o?.props.get('args');
    spawnArgv({ k: 'arr', items: [c.a0, ...(rest?.k === 'arr' ? rest.items : [])] }, o);
    return UNKNOWN;
  }
  if (c.path === 'run' && c.a0?.k === 'obj') {
    spawnArgv(c.a0.props.get('cmd'), c.a0);
    return UNKNOWN;
  }
  if (c.path === 'env.get' && c.s0 !== undefined) return envMember(ev, c.s0, c.node, c.scope);
  if (c.path === 'env.toObject') return { k: 'env' };
  // Host facts: Deno.hostname(), Deno.cwd(), Deno.osRelease() … as os.hostname(), process.cwd().
  if (c.path === 'cwd') return asNode(ev, c, 'process', 'cwd');
  if (/^(?:hostname|osRelease|networkInterfaces|loadavg|systemMemoryInfo|uid|gid)$/.test(c.path))
    return asNode(ev, c, 'os', c.path === 'osRelease' ? 'release' : c.path);
  if (DENO_READ.test(c.path) && c.a0) return as('fs', 'readFileSync', [c.a0]);
  if (DENO_WRITE.test(c.path) && c.a0) return as('fs', 'writeFileSync', [c.a0, c.args[1] ?? UNKNOWN]);
  return undefined;
}

/** `Bun.file(path).text()` / `.json()` / `.arrayBuffer()` / `.bytes()` / `.stream()`: the file read. */
export function bunFileRead(ev: Evaluator, c: ApiCall): Val | undefined {
  if (c.mod !== 'bunfile' || !/^(?:text|json|arrayBuffer|bytes|stream)$/.test(c.method) || !c.path)
    return undefined;
  const p = c.path.slice(0, c.path.lastIndexOf('.'));
  return p ? asNode(ev, c, 'fs', 'readFileSync', [str(p)]) : undefined;
}
