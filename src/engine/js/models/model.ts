/**
 * The shape of an API model: given a call the evaluator could not resolve to a local function,
 * say what it returns (an abstract value, with its taint) and report its effects. A model
 * returns `undefined` for calls that are not its own; the evaluator then treats the call as
 * opaque (its result carries its arguments' taint).
 */
import type { Scope } from '../scope';
import type { AstNode, Val } from '../values';

/** A call of a member of a module or a global object (`fs.readFileSync(p)`, `Buffer.from(s, 'hex')`). */
export interface ApiCall {
  node: AstNode;
  callee: Val & { k: 'api' };
  /** Canonical module (`fs`, `child_process`), `global:<Name>`, or a value kind (`string`, `array`, `netobj`). */
  mod: string;
  /** Member path under the module (`promises.readFile`, `request`). */
  path: string;
  /** Last part of `path`. */
  method: string;
  args: Val[];
  argNodes: AstNode[];
  a0: Val | undefined;
  /** The first argument as a constant string, when known. */
  s0: string | undefined;
  scope: Scope;
  isNew: boolean;
  depth: number;
}

/** A call of a global function (`eval(s)`, `fetch(u)`, `atob(s)`). */
export interface GlobalCall {
  node: AstNode;
  name: string;
  args: Val[];
  argNodes: AstNode[];
  a0: Val | undefined;
  s0: string | undefined;
  scope: Scope;
  depth: number;
}

/** A module called as a function (`axios(u)`, `execa(cmd)`, `bindings('addon')`). */
export interface ModuleCall {
  node: AstNode;
  mod: string;
  args: Val[];
  scope: Scope;
}

/** A callback handed to an API: what its parameters receive. */
export interface CallbackCall {
  callee: Val;
  result: Val;
  args: Val[];
  /** The method name the callback was given to (`on`, `addEventListener`). */
  method: string | undefined;
  /** In a page worker's code read for where its messages go: what it is posted. */
  messages?: Val;
}
