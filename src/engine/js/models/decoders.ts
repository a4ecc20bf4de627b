/**
 * API model: crypto and decoders. `Buffer.from(s, 'base64'|'hex')`, byte arrays,
 * `String.fromCharCode`, `atob`, `unescape`/`decodeURIComponent`, `parseInt(hex)`, deciphers and
 * decompression. Constant inputs are decoded; what comes out carries the `decoded` taint.
 */
import {
  asNum,
  asString,
  deepTaints,
  str,
  unknown,
  withTaint,
  UNKNOWN,
  type Taint,
  type Val,
} from '../values';

import { markEncoded } from '../builtins';
import type { ApiCall, GlobalCall } from './model';

/** What a digest does not carry over from its input. */
const SECRET_TAINTS: ReadonlySet<Taint> = new Set([
  'env_all',
  'secret_env',
  'secret_file',
  'key_material',
  'page_secret',
  'request_secret',
]);

export function decodeBase64(s: string): string | undefined {
  const t = s.replace(/\s+/g, '');
  if (t.length < 4 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) return undefined;
  return Buffer.from(t, 'base64').toString('utf8');
}

export function decodeHex(s: string): string | undefined {
  if (s.length < 2 || s.length % 2 || !/^[0-9a-fA-F]+$/.test(s)) return undefined;
  return Buffer.from(s, 'hex').toString('utf8');
}

export function printable(s: string): boolean {
  // eslint-disable-next-line no-control-regex -- tab, newline and carriage return are printable here
  return s.length > 0 && /^[\x09\x0a\x0d\x20-\x7e]+$/.test(s);
}

/** Standard or URL-safe base64 (not a mix of both alphabets), as encoders write it. */
export function strictBase64(s: string): boolean {
  const t = s.replace(/\s+/g, '');
  return /^[A-Za-z0-9+/]+={0,2}$/.test(t) || /^[A-Za-z0-9_-]+={0,2}$/.test(t);
}

/** Decoded text that reads as text (names, code, URLs), not as random bytes that happen to be printable. */
export function mostlyText(s: string): boolean {
  const good = s.match(/[A-Za-z0-9 ._\-/:(){}'";,=]/g)?.length ?? 0;
  return good / s.length >= 0.85;
}

function safeDecodeUri(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function decoderGlobal(c: GlobalCall): Val | undefined {
  const { args, s0 } = c;
  switch (c.name) {
    case 'atob': {
      const s = s0 !== undefined ? decodeBase64(s0) : undefined;
      const out: Val = s !== undefined ? { k: 'str', v: s } : { k: 'unknown' };
      return withTaint(out, args, 'decoded');
    }
    case 'unescape':
    case 'decodeURIComponent':
      return s0 !== undefined ? str(safeDecodeUri(s0), args) : unknown(args);
    // `new Uint8Array([104, 105])`: the bytes, kept as the list of numbers.
    case 'Uint8Array':
    case 'Uint16Array':
      return c.a0?.k === 'arr' ? c.a0 : unknown(args);
    // `new TextDecoder()`: a decoder whose `decode(bytes)` gives text; `new TextEncoder()` an
    // encoder whose `encode(text)` gives its bytes (kept as the text).
    case 'TextDecoder':
      return { k: 'api', mod: 'textdecoder', path: '' };
    case 'TextEncoder':
      return { k: 'api', mod: 'textencoder', path: '' };
    // `encodeURIComponent(text)`: its escaped form (what `decodeURIComponent` gives back), so a
    // `data:` address built from it still holds the text.
    case 'encodeURIComponent':
    case 'encodeURI':
      if (s0 === undefined || s0.includes('${…}') || s0.length > 1_000_000) return unknown(args);
      try {
        return str(c.name === 'encodeURI' ? encodeURI(s0) : encodeURIComponent(s0), args);
      } catch {
        return unknown(args);
      }
    // `btoa(text)`: its base64 (what `atob` gives back).
    case 'btoa':
      return markEncoded(
        s0 !== undefined && !s0.includes('${…}') && [...s0].every((ch) => ch.charCodeAt(0) < 256)
          ? str(Buffer.from(s0, 'latin1').toString('base64'), args)
          : unknown(args),
      );
    case 'parseInt':
      if (s0 !== undefined && /^(?:0x)?[0-9a-f]+$/i.test(s0))
        return { k: 'num', v: parseInt(s0, asNum(args[1]) ?? 10) };
      // Text read as bits (`parseInt(chunk.replace(/ /g, '0').replace(/\t/g, '1'), 2)`): bytes
      // decoded from a carrier (whitespace, letter case). Other numbers (a port from the
      // environment) carry nothing on.
      return asNum(args[1]) === 2 ? withTaint({ k: 'unknown' }, args.slice(0, 1), 'decoded') : UNKNOWN;
    default:
      return undefined;
  }
}

export function decoderApi(c: ApiCall): Val | undefined {
  const { mod, path, method, args, a0, s0, callee } = c;
  if (mod === 'global:Buffer' && path === 'from') {
    const enc = asString(args[1]);
    if (a0?.k === 'arr') {
      const bytes = a0.items.map(asNum);
      if (bytes.every((b) => b !== undefined))
        return withTaint(str(Buffer.from(bytes as number[]).toString('utf8')), args, 'decoded');
      // Bytes computed one by one and read as text (like String.fromCharCode): decoded, with what
      // they were made from.
      return withTaint(
        { k: 'unknown' },
        [a0, ...a0.items.slice(0, 50)],
        a0.items.length ? 'decoded' : undefined,
      );
    }
    if (s0 !== undefined && enc) {
      const d = /^base64(?:url)?$/i.test(enc) ? decodeBase64(s0) : /^hex$/i.test(enc) ? decodeHex(s0) : s0;
      const out = withTaint(
        d !== undefined ? str(d) : { k: 'unknown' },
        args,
        /^(?:base64(?:url)?|hex)$/i.test(enc) ? 'decoded' : undefined,
      );
      // The bytes (an encrypted blob's, say): kept, for a loop that decrypts them in place.
      if (
        out.k === 'str' &&
        d !== undefined &&
        s0.length <= 90_000 &&
        /^(?:base64(?:url)?|hex)$/i.test(enc)
      ) {
        const raw = Buffer.from(s0, /^hex$/i.test(enc) ? 'hex' : 'base64');
        out.bytes = new Uint8Array(raw);
      }
      return out;
    }
    if (enc && /^(?:base64(?:url)?|hex)$/i.test(enc)) return withTaint({ k: 'unknown' }, args, 'decoded');
    // A short text's bytes (a key: `Buffer.from('s3cr')`), read by index as numbers.
    if (
      s0 !== undefined &&
      !s0.includes('${…}') &&
      s0.length <= 1024 &&
      (!enc || /^(?:utf-?8|latin1|binary|ascii)$/i.test(enc))
    ) {
      const out = str(s0, args);
      if (out.k === 'str')
        out.bytes = new Uint8Array(
          Buffer.from(s0, enc && /^(?:latin1|binary)$/i.test(enc) ? 'latin1' : 'utf8'),
        );
      return out;
    }
    return s0 !== undefined ? str(s0, args) : unknown(args);
  }
  // `Buffer.concat([decipher.update(x), decipher.final()])`: the parts' taint stays on the whole.
  // A fresh buffer: what is written into it element by element is followed (see assignments).
  // (Its size keeps what it was computed from: a buffer sized from an image's header.)
  if (mod === 'global:Buffer' && /^alloc(?:Unsafe(?:Slow)?)?$/.test(path))
    return withTaint({ k: 'unknown' }, args);
  if (mod === 'global:Buffer' && path === 'concat' && a0?.k === 'arr')
    return withTaint({ k: 'unknown' }, [a0, ...a0.items.slice(0, 50)]);
  if (mod === 'textencoder' && method === 'encode') return a0 ?? UNKNOWN;
  if (mod === 'textdecoder' && method === 'decode' && a0?.k === 'str') return a0;
  if (mod === 'textdecoder' && method === 'decode') {
    const bytes = a0?.k === 'arr' ? a0.items.map(asNum) : undefined;
    if (bytes?.length && bytes.every((b) => b !== undefined && b >= 0 && b < 256))
      return withTaint(str(Buffer.from(bytes as number[]).toString('utf8')), args, 'decoded');
    // Bytes not known here (a response, wasm memory): text with their taint, nothing hidden.
    return unknown(args);
  }
  if (mod === 'global:String' && path === 'fromCharCode') {
    const codes = args.map(asNum);
    if (codes.length && codes.every((c) => c !== undefined))
      return withTaint(str(String.fromCharCode(...(codes as number[]))), args, 'decoded');
    return withTaint({ k: 'unknown' }, args, 'decoded');
  }
  // A digest (`createHash(alg).update(x).digest()`, an HMAC) reveals nothing of a secret it was
  // made from: it keeps what else its input carried (a hashed host name still names the machine,
  // a hashed request field is still what the request said), not the secrets (a cache key made
  // from the environment, a request signed with a token).
  if (mod === 'crypto' && /^(?:createHash|createHmac)$/.test(method))
    return { k: 'api', mod: 'digest', path: '' };
  if (mod === 'digest' && (method === 'update' || method === 'digest')) {
    const kept = new Set<Taint>();
    for (const a of [callee, ...args]) for (const t of deepTaints(a)) if (!SECRET_TAINTS.has(t)) kept.add(t);
    const out: Val = method === 'update' ? { k: 'api', mod: 'digest', path: '' } : { k: 'unknown' };
    if (kept.size) out.t = kept;
    return out;
  }
  if (mod === 'crypto' && /^createDecipher/.test(method)) {
    return withTaint({ k: 'api', mod: 'decipher', path: '' }, args, 'decoded');
  }
  if (mod === 'decipher' && (method === 'update' || method === 'final'))
    return withTaint({ k: 'unknown' }, [callee], 'decoded');
  if (mod === 'crypto' && /^createCipher/.test(method))
    return withTaint({ k: 'api', mod: 'cipher', path: '' }, [], 'encrypted');
  if (mod === 'cipher' && (method === 'update' || method === 'final'))
    return withTaint({ k: 'unknown' }, [callee, ...args], 'encrypted');
  if (mod === 'zlib' && /^(?:inflate|gunzip|brotliDecompress|unzip|inflateRaw)(?:Sync)?$/.test(method)) {
    return withTaint({ k: 'unknown' }, args);
  }
  return undefined;
}
