/**
 * IP addresses written as URL hosts, in every form a URL parser accepts: dotted decimal, one
 * decimal or hexadecimal number (`http://3405803777/`, `http://0xcb007101/`), octal or short
 * dotted forms, and bracketed IPv6. Attackers write the other forms to pass address patterns; the
 * URL parser (and so every HTTP client) turns them into the same address.
 */

/** A private, loopback, link-local or reserved IPv4 address, given dotted decimal. */
function privateIpv4(a: number, b: number): boolean {
  return (
    a === 10 ||
    a === 127 ||
    a === 0 ||
    a >= 224 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
/** One to four parts, each decimal, octal (leading 0) or hexadecimal (0x). */
const NUMERIC_HOST = /^(?:0x[0-9a-f]*|\d+)(?:\.(?:0x[0-9a-f]*|\d+)){0,3}\.?$/i;

/** The host as dotted-decimal IPv4, when it is an IPv4 address in any form; else undefined. */
export function ipv4Of(host: string): string | undefined {
  let h = host.trim().toLowerCase();
  // (Percent-encoded or full-width digits: the URL parser decodes them first.)
  if (/[%\u0080-\uffff]/.test(h) && h.length <= 200) {
    try {
      h = new URL(`http://${h}/`).hostname;
    } catch {
      return undefined;
    }
  }
  if (DOTTED.test(h)) return h;
  if (h.length > 40 || !NUMERIC_HOST.test(h)) return undefined;
  try {
    const out = new URL(`http://${h}/`).hostname;
    return DOTTED.test(out) ? out : undefined;
  } catch {
    return undefined;
  }
}

/** A global IPv6 address (bracketed or not): not loopback, link-local, unique-local or v4-mapped private. */
function publicIpv6(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (!h.includes(':') || !/^[0-9a-f:.]+$/.test(h) || h.length > 45) return false;
  let norm: string;
  try {
    norm = new URL(`http://[${h}]/`).hostname.slice(1, -1);
  } catch {
    return false;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(norm);
  if (mapped) {
    const hi = parseInt(mapped[1]!, 16);
    return !privateIpv4(hi >> 8, hi & 255);
  }
  // Global unicast is 2000::/3; everything else (::1, fe80::/10, fc00::/7, multicast) stays local.
  return /^[23][0-9a-f]{0,3}:/.test(norm);
}

/**
 * The address when the host is a public IP (any IPv4 form, or global IPv6), for messages; else
 * undefined. Private, loopback and link-local addresses are not public.
 */
export function publicIpOf(host: string): string | undefined {
  const v4 = ipv4Of(host);
  if (v4) {
    const [a, b] = v4.split('.').map(Number) as [number, number];
    return privateIpv4(a, b) ? undefined : v4;
  }
  return publicIpv6(host) ? host.replace(/^\[|\]$/g, '').toLowerCase() : undefined;
}

/** The host is an IP address (any IPv4 form, or IPv6), public or not. */
export function isIpHost(host: string): boolean {
  return ipv4Of(host) !== undefined || /^\[[0-9a-f:.]+\]$/i.test(host.trim());
}
