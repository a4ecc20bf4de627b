/**
 * API model: the sessions of messaging client libraries. A WhatsApp multi-device session
 * (Baileys and its forks) keeps the account's identity and pre-keys in its auth state:
 * `useMultiFileAuthState(dir)` / `useSingleFileAuthState(file)` give it, and whoever holds it is
 * logged in as the account. It is `key_material`, like a wallet's keys: sent to a host written in
 * the code, it is the session taken (the sealed "cloud backup" of a bot framework's fork).
 */
import { UNKNOWN, withTaint, type Val } from '../values';
import type { ApiCall, ModuleCall } from './model';

/** Baileys under the names it is published and forked as. */
const WHATSAPP_CLIENT = /^(?:@[\w-]+\/)?baileys$|^@adiwajshing\/baileys|^baileys-/i;

export function sessionApi(c: ApiCall): Val | undefined {
  if (!WHATSAPP_CLIENT.test(c.mod)) return undefined;
  if (/^(?:useMultiFileAuthState|useSingleFileAuthState|makeCacheableSignalKeyStore)$/.test(c.path))
    return withTaint({ k: 'unknown' }, [], 'key_material');
  // The socket made with the auth state logs in with it: what it and its events give (the
  // account's id, messages) is not the keys.
  if (/^(?:default|makeWASocket|makeWALegacySocket|makeInMemoryStore)$/.test(c.path)) return UNKNOWN;
  return undefined;
}

/** The module called itself (`const { default: makeWASocket } = require(…)`): the socket, no keys. */
export function sessionModuleCall(m: ModuleCall): Val | undefined {
  return WHATSAPP_CLIENT.test(m.mod) ? UNKNOWN : undefined;
}
