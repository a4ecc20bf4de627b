/**
 * Accumulates capability facts across the files of a package, and turns them into the
 * `Capabilities` shape of the API (sorted unique strings).
 */
import { emptyCapabilities, type Capabilities } from '../contract/schemas';

/** Recorded in `environment.accessed_vars` when the whole environment is read (serialised, copied, enumerated). */
export const WHOLE_ENV = '*';
/** Longest capability string kept (domains, paths, commands, variable names). */
export const MAX_CAPABILITY_STRING = 200;

export class CapabilityCollector {
  makesRequests = false;
  readonly domains = new Set<string>();
  readonly protocols = new Set<string>();
  reads = false;
  writes = false;
  readonly paths = new Set<string>();
  spawns = false;
  readonly commands = new Set<string>();
  readonly envVars = new Set<string>();
  hasNative = false;
  readonly nativeModules = new Set<string>();

  addDomain(host: string): void {
    const h = host.trim().toLowerCase().replace(/\.$/, '');
    if (!h || h.length > 253) return;
    if (!/^(?:[a-z0-9-_]+\.)*[a-z0-9-_]+$|^\[[0-9a-f:.]+\]$/.test(h)) return;
    if (!h.includes('.') && h !== 'localhost' && !h.startsWith('[')) return;
    this.domains.add(h);
  }

  addUrl(url: string): boolean {
    const m = /^(https?|wss?|ftp|tcp|udp):\/\/(?:[^@/?#\s]*@)?(\[[^\]]+\]|[^:/?#\s]+)/i.exec(url.trim());
    if (!m) return false;
    this.protocols.add(m[1]!.toLowerCase());
    this.addDomain(m[2]!);
    return true;
  }

  addPath(p: string): void {
    const s = p.trim();
    if (s && s.length <= 300 && !s.includes('\n')) this.paths.add(s);
  }

  addCommand(cmd: string): void {
    const c = cmd.trim();
    if (!c || c.length > 120 || /\s/.test(c)) return;
    const base =
      c
        .replace(/^["']|["']$/g, '')
        .split(/[\\/]/)
        .pop() ?? c;
    if (base && /^[\w.+-]+$/.test(base)) this.commands.add(base.replace(/\.exe$/i, ''));
  }

  merge(other: CapabilityCollector): void {
    this.makesRequests ||= other.makesRequests;
    this.reads ||= other.reads;
    this.writes ||= other.writes;
    this.spawns ||= other.spawns;
    this.hasNative ||= other.hasNative;
    for (const [a, b] of [
      [this.domains, other.domains],
      [this.protocols, other.protocols],
      [this.paths, other.paths],
      [this.commands, other.commands],
      [this.envVars, other.envVars],
      [this.nativeModules, other.nativeModules],
    ] as const)
      for (const x of b) a.add(x);
  }

  toSchema(): Capabilities {
    const caps = emptyCapabilities();
    // Bounded in count and in length: a hostile package must not make its own result too large to store.
    const sorted = (s: Set<string>, max = 200) =>
      [
        ...new Set(
          [...s].map((v) => (v.length > MAX_CAPABILITY_STRING ? `${v.slice(0, MAX_CAPABILITY_STRING)}…` : v)),
        ),
      ]
        .sort()
        .slice(0, max);
    caps.network = {
      makes_requests: this.makesRequests,
      domains: sorted(this.domains),
      protocols: sorted(this.protocols),
    };
    caps.filesystem = { reads: this.reads, writes: this.writes, paths: sorted(this.paths) };
    caps.process = {
      spawns_children: this.spawns || this.commands.size > 0,
      commands: sorted(this.commands),
    };
    caps.environment = { accessed_vars: sorted(this.envVars, 500) };
    caps.native = {
      has_native: this.hasNative || this.nativeModules.size > 0,
      native_modules: sorted(this.nativeModules),
    };
    return caps;
  }
}
