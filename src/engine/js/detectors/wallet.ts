/**
 * Wallet-address swap (clipboard hijacking, transaction or request rewriting): a pattern that
 * recognises crypto addresses, an address written in the code, and a place where the page's data
 * is intercepted (clipboard, hooked fetch/XHR/wallet provider, page text), all in one file.
 */
import { lineOf, sourceText } from '../ast';
import type { Scope } from '../scope';
import { asString, hasDeepTaint, flatStrings, WALLET_PROVIDERS, type AstNode, type Val } from '../values';
import type { Detectors } from './index';

/** Addresses of the chains address swappers target (public example addresses). */
const SAMPLE_ADDRESSES = [
  '0x52908400098527886E0F7030069857D2E4169EE7', // Ethereum (EIP-55 test vector)
  '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', // Bitcoin P2PKH
  'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', // Bitcoin bech32 (BIP-173 example)
  'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW', // TRON
  '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', // Solana
];

/** Whether a regular expression source matches a crypto address (tried on sample addresses). */
function matchesAddress(pattern: string): boolean {
  if (!/\{\s*(?:2[5-9]|3\d|4\d|5\d)\s*(?:,|\})|\{\s*\d+\s*,\s*(?:3\d|4\d|5\d|6\d)\s*\}/.test(pattern))
    return false;
  try {
    const re = new RegExp(pattern);
    return SAMPLE_ADDRESSES.some((a) => re.test(a));
  } catch {
    return false;
  }
}

/** A string literal shaped like an Ethereum, Bitcoin or TRON address (not the zero address). */
function isAddressLiteral(v: string): boolean {
  if (/^0x[0-9a-fA-F]{40}$/.test(v)) return !/^0x0{40}$|^0x[eE]{40}$/.test(v);
  return (
    /^(?:bc1[02-9ac-hj-np-z]{25,59}|[13][1-9A-HJ-NP-Za-km-z]{25,34}|T[1-9A-HJ-NP-Za-km-z]{33})$/.test(v) &&
    /\d/.test(v) &&
    /[a-z]/.test(v) &&
    /[A-Z]/.test(v.slice(1))
  );
}

/** A regular expression literal that recognises crypto addresses. */
export function addressPattern(d: Detectors, source: string, node: AstNode): void {
  if (!d.wallet.regex && source.length < 300 && matchesAddress(source)) d.wallet.regex = lineOf(node);
}

export function addressLiteral(d: Detectors, v: string, node: AstNode): void {
  // (Also written backwards, to be reversed where it is used: `'…e0x0'.split('').reverse()`.)
  if (
    !d.wallet.literal &&
    v.length >= 26 &&
    v.length <= 64 &&
    (isAddressLiteral(v) || isAddressLiteral([...v].reverse().join('')))
  )
    d.wallet.literal = lineOf(node);
}

/** window.fetch = …, XMLHttpRequest.prototype.send = …, ethereum.request = …: calls hooked. */
export function interceptByAssignment(
  d: Detectors,
  node: AstNode,
  target: string,
  obj: Val | undefined,
): void {
  const provider = obj?.k === 'global' && WALLET_PROVIDERS.has(obj.name);
  // A hook of a provider's request replaces a page-text one seen first (`el.innerHTML = …` earlier
  // in a bundle): the request hook is what rewrites transactions.
  const requestHook = /(?:^|\.)(?:request|send|sendAsync|sendTransaction|signTransaction)$/.test(target);
  // (The page's own requests and responses hooked, or a wallet provider's: what every page reads
  // or signs goes through it. A class's own `prototype.send`, or page text written, is ordinary.)
  const pageWide =
    provider ||
    /^(?:(?:window|self|globalThis|global)\.)?(?:fetch|XMLHttpRequest\.prototype\.\w+)$|(?:^|\.)(?:Response|Body)\.prototype\./.test(
      target,
    );
  if (
    d.wallet.intercept !== undefined &&
    !(requestHook && !providerHooked(d)) &&
    !(d.wallet.common && pageWide)
  )
    return;
  if (
    /(?:^|\.)(?:fetch|request|send|open|sendTransaction|sendAsync|signTransaction|innerHTML|textContent|nodeValue|innerText|value)$/.test(
      target,
    ) ||
    // (Every response body the page reads, rewritten where it is read: `Response.prototype.json`.)
    /(?:^|\.)(?:Response|Body)\.prototype\.(?:json|text|arrayBuffer|blob)$/.test(target)
  ) {
    d.wallet.intercept = lineOf(node);
    d.wallet.how = target.slice(0, 60);
    d.wallet.provider = provider;
    d.wallet.common = !pageWide;
  }
}

/** `new RegExp(addressPattern)`, clipboard access, `Object.defineProperty(provider, 'request', …)`. */
export function interceptByCall(
  d: Detectors,
  node: AstNode,
  calleeNode: AstNode,
  how: string | undefined,
  args: Val[],
): void {
  if (
    calleeNode.type === 'Identifier' &&
    calleeNode.name === 'RegExp' &&
    d.wallet.regex === undefined &&
    (asString(args[0])?.length ?? 300) < 300 &&
    matchesAddress(asString(args[0])!)
  )
    d.wallet.regex = lineOf(node);
  // (A stronger interception seen after a common one takes its place.)
  if (how && (d.wallet.intercept === undefined || d.wallet.common)) {
    const type = asString(args[0]) ?? '';
    if (
      /^(?:writeText|readText|setData|getData)$/.test(how) ||
      (how === 'addEventListener' && /^(?:copy|paste|cut)$/.test(type))
    ) {
      // (A copy button's `writeText(address)` puts the page's own text there, and an address field
      // reads what is pasted into it: what rewrites a copy is a copy handler setting its data.)
      const rewritesCopy = how === 'setData' || (how === 'addEventListener' && type !== 'paste');
      if (!rewritesCopy && d.wallet.intercept !== undefined) return;
      d.wallet.intercept = lineOf(node);
      d.wallet.how = 'the clipboard';
      d.wallet.common = !rewritesCopy;
    } else if (
      how === 'defineProperty' &&
      /^(?:request|send|sendAsync|sendTransaction|fetch|open)$/.test(asString(args[1]) ?? '')
    ) {
      d.wallet.intercept = lineOf(node);
      d.wallet.how = `${asString(args[1])} calls`;
      d.wallet.common = true;
    }
  }
}

/**
 * Whether the interception is a wallet provider's request hooked: the hooked object is a wallet
 * provider by its name, or by the JSON-RPC wallet methods the file handles (however aliased).
 */
export function providerHooked(d: Detectors): boolean {
  const how = d.wallet.how ?? '';
  return (
    /\.(?:request|send|sendAsync|sendTransaction|signTransaction)$/.test(how) &&
    (!!d.wallet.provider ||
      /(?:ethereum|provider|wallet|web3|solana|phantom|tronWeb|signer)[\w$.]*\.\w+$/i.test(how) ||
      /\beth_(?:sendTransaction|signTransaction|requestAccounts|sign)\b|\bsignAndSendTransaction\b/.test(
        d.input.text,
      ))
  );
}

/** At the end of the file: the three pieces together. */
export function swap(d: Detectors): void {
  const w = d.wallet;
  // A wallet provider's request hooked, with a fixed address in the file: transactions rewritten
  // to the attacker (no address pattern needed: the request says which field is the address).
  // The hooked object is a wallet provider by its name, or by the JSON-RPC wallet methods the file
  // handles (however the provider was aliased).
  const walletHook = providerHooked(d);
  if (w.regex === undefined && walletHook && w.literal !== undefined && w.intercept !== undefined) {
    d.threat(
      'js.wallet-address-swap',
      'malicious_code',
      w.intercept,
      `hooks the wallet provider's ${w.how} and holds a fixed address (line ${w.literal}): transactions rewritten to it`,
    );
    w.reported = true;
    return;
  }
  if (w.regex !== undefined && w.literal !== undefined && w.intercept !== undefined) {
    d.threat(
      'js.wallet-address-swap',
      'malicious_code',
      w.intercept,
      `recognises crypto wallet addresses (line ${w.regex}), holds a fixed address (line ${w.literal}) and intercepts ${w.how}: an address swapper`,
    );
    w.reported = true;
  }
}

/** An Ethereum address, or a Solana/TRON/Bitcoin base58 address, as a whole string. */
const WALLET_ADDRESS = /^(?:0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44}|T[1-9A-HJ-NP-Za-km-z]{33})$/;

/** Function selectors of ERC-20 `approve` and ERC-721/1155 `setApprovalForAll`. */
const APPROVE_DATA = /^0x(?:095ea7b3|a22cb465)0{24}([0-9a-fA-F]{40})/;

/**
 * An address written in the code that a call's source names: a literal, or a name bound to one
 * (`new PublicKey(DEST)`, `{ to: SINK }`).
 */
function fixedAddressIn(d: Detectors, node: AstNode, scope: Scope | undefined): string | undefined {
  const src = sourceText(d.input.text, node, 2000) ?? '';
  // Only in a recipient field (`to`, `toPubkey`, `destination` …): a token mint or a hash beside
  // the amount is not where the funds go.
  for (const m of src.matchAll(
    /\b(?:to|toPubkey|toAddress|destination|recipient|receiver|dest)\s*:\s*(?:new\s+[\w$.]+\s*\(\s*)?(?:['"`]([0-9A-Za-z]{32,44})['"`]|([A-Za-z_$][\w$]*))/g,
  )) {
    const v = m[1] ?? (scope ? asString(scope.lookup(m[2]!)) : undefined);
    if (v !== undefined && WALLET_ADDRESS.test(v) && /\d/.test(v) && /[A-Za-z]/.test(v)) return v;
  }
  return undefined;
}

/**
 * Asked of the wallet as soon as the page loads, for an address written in the code: a permit
 * (`eth_signTypedData_v4` naming it the spender) or an approval (`approve` / `setApprovalForAll`
 * transaction data): the user's tokens handed over without a click. Dapps ask for these when
 * their user starts a swap.
 */
export function approvalOnLoad(d: Detectors, node: AstNode, how: string | undefined, args: Val[]): void {
  if (how !== 'request' || args[0]?.k !== 'obj') return;
  const method = asString(args[0].props.get('method')) ?? '';
  const params = args[0].props.get('params');
  const items = params?.k === 'arr' ? params.items : [];
  // A token permit (EIP-2612 Permit, Permit2 PermitSingle/PermitBatch) whose spender a server
  // names: the signature lets that address move the user's tokens, and the address can change
  // with every fetch of the configuration (permit phishing). Dapps permit their own router, an
  // address written in their code.
  if (/^eth_signTypedData(?:_v[34])?$/.test(method)) {
    const typed = items.find((i) => i.k === 'obj' || (asString(i) ?? '').includes('primaryType'));
    const text = typed ? (asString(typed) ?? '') : '';
    // (Typed data written as JSON text here is read as the object it was made from.)
    const obj =
      typed?.k === 'obj' ? typed : typed?.k === 'str' && typed.json?.k === 'obj' ? typed.json : undefined;
    const primary = obj
      ? asString(obj.props.get('primaryType'))
      : /"primaryType"\s*:\s*"(\w+)"/.exec(text)?.[1];
    const message = obj?.props.get('message');
    const spenderVal = message?.k === 'obj' ? message.props.get('spender') : undefined;
    const remoteSpender = spenderVal
      ? hasDeepTaint(spenderVal, 'network_data')
      : /"spender"\s*:\s*null/.test(text) && hasDeepTaint(typed, 'network_data');
    if (primary && /^Permit/i.test(primary) && remoteSpender) {
      d.threat(
        'js.wallet-drain',
        'malicious_code',
        node,
        `asks the wallet to sign a token permit (${primary}) for a spender named by data it downloaded (permit phishing)`,
        'remoteSpender',
      );
      return;
    }
  }
  if (d.unprompted !== 'load') return;
  let spender: string | undefined;
  if (/^eth_signTypedData(?:_v[34])?$/.test(method)) {
    const text = items.map((i) => asString(i) ?? flatStrings(i).join(' ')).join(' ');
    spender = /"spender"\s*:\s*"(0x[0-9a-fA-F]{40})"|"operator"\s*:\s*"(0x[0-9a-fA-F]{40})"/
      .exec(text)
      ?.slice(1)
      .find(Boolean);
    if (!spender) {
      const msg = items.find((i) => i.k === 'obj');
      const m = msg?.k === 'obj' ? msg.props.get('message') : undefined;
      const sp = m?.k === 'obj' ? asString(m.props.get('spender') ?? m.props.get('operator')) : undefined;
      if (sp && /^0x[0-9a-fA-F]{40}$/.test(sp)) spender = sp;
    }
  } else if (method === 'eth_sendTransaction' && items[0]?.k === 'obj') {
    spender = APPROVE_DATA.exec(asString(items[0].props.get('data')) ?? '')?.[1];
    if (spender) spender = `0x${spender}`;
  }
  if (!spender || !d.input.text.toLowerCase().includes(spender.slice(2).toLowerCase())) return;
  d.threat(
    'js.wallet-drain',
    'malicious_code',
    node,
    `asks the wallet to let ${spender.slice(0, 10)}…, an address written in the code, spend the user's tokens (${method}) as soon as the page loads`,
    'unprompted',
  );
}

/**
 * A wallet drainer: a transaction (`signer.sendTransaction(tx)`, `request({ method:
 * 'eth_sendTransaction', params: [tx] })`) whose value is the balance the code read from the
 * wallet and whose recipient is an address written in the code. Dapps send what the user chose
 * to the contract they call; taking the whole balance to a fixed address is theft.
 */
export function drain(
  d: Detectors,
  node: AstNode,
  how: string | undefined,
  args: Val[],
  scope?: Scope,
): void {
  // Any call given the balance read from the wallet as an amount (`transfer({ lamports: bal -
  // fee, toPubkey: new PublicKey(DEST) })`), with a fixed address named in it: a drainer,
  // whatever the chain's library calls it.
  if (how !== 'request' && how !== 'sendTransaction' && args.some((a) => hasDeepTaint(a, 'wallet_balance'))) {
    const to = fixedAddressIn(d, node, scope);
    if (to)
      d.threat(
        'js.wallet-drain',
        'malicious_code',
        node,
        `moves the balance it read from the wallet to ${to.slice(0, 10)}…, an address written in the code (a drainer)`,
      );
    return;
  }
  let tx: Val | undefined;
  if (how === 'sendTransaction') tx = args[0];
  else if (
    how === 'request' &&
    args[0]?.k === 'obj' &&
    // (Or the method its caller asked for, passed on: `{ ...args, params: [next] }` in a wrapper.)
    (asString(args[0].props.get('method')) ?? 'eth_sendTransaction') === 'eth_sendTransaction'
  ) {
    const params = args[0].props.get('params');
    tx = params?.k === 'arr' ? params.items[0] : undefined;
  }
  if (tx?.k !== 'obj') return;
  // The recipient or spender the caller chose, replaced by an address written in the code (a
  // per-chain "router" table consulted before the caller's spender, a transaction's `to`
  // overwritten): the transaction goes where the package says, not where its user asked.
  // (A transaction one of whose ways out replaces it carries the mark whole: `if (transfer) return
  // { ...tx, data: withSpender(ROUTER) }; … return { ...tx, to: ROUTER }`.)
  const field = ['to', 'data'].find((f) => hasDeepTaint(tx.props.get(f), 'recipient_override'));
  const swapped = field ?? (tx.t?.has('recipient_override') ? 'either' : undefined);
  // (A fixed contract as `to` with call data encoded here, or carrying the caller's recipient,
  // wraps the caller's call: an account-abstraction entry point, a multicall, a relayer's
  // forwarder. A swap keeps what the caller asked for and changes where it goes.)
  const data = tx.props.get('data');
  const wraps =
    swapped === 'to' &&
    (hasDeepTaint(data, 'caller_recipient') || (data?.k === 'str' && /^0x[0-9a-fA-F]{8}/.test(data.v)));
  if (swapped && !wraps) {
    d.threat(
      'js.wallet-address-swap',
      'malicious_code',
      node,
      `replaces the ${swapped === 'to' ? 'recipient' : 'recipient or spender in the call data'} its caller chose with an address written in the code before the wallet signs${swapped === 'either' ? ' (on one of the ways its rewrite takes)' : ''}`,
    );
    return;
  }
  const to = asString(tx.props.get('to'));
  const value = tx.props.get('value');
  if (!to || !/^0x[0-9a-fA-F]{40}$/.test(to) || !value) return;
  if (!hasDeepTaint(value, 'wallet_balance')) {
    // A fixed amount asked for as soon as the page loads, to an address written in the code: no
    // one clicked a pay button (a dapp's transfer is sent when its user asks).
    if (d.unprompted === 'load' && asString(value) !== undefined)
      d.threat(
        'js.wallet-drain',
        'malicious_code',
        node,
        `asks the wallet to send ${asString(value)!.slice(0, 24)} to ${to.slice(0, 10)}…, an address written in the code, as soon as the page loads`,
        'unprompted',
      );
    return;
  }
  d.threat(
    'js.wallet-drain',
    'malicious_code',
    node,
    `sends the balance it read from the wallet to ${to.slice(0, 10)}…, an address written in the code (a drainer)`,
  );
}
