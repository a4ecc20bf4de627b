/** Lexical scopes of the evaluator: variables, and what a function read and sent (for the detectors). */
import type { Taint, Val } from './values';

export class Scope {
  readonly vars = new Map<string, Val>();
  /** Taints of sensitive data read in this function (for the same-scope exfiltration rule); made on first use. */
  sources?: Map<Taint, number>;
  sinks?: { line: number; what: string; tainted: boolean; fingerprint?: boolean }[];
  /** Values returned by the function this scope belongs to (set for function scopes). */
  returns?: Val[];
  constructor(
    readonly parent: Scope | undefined,
    readonly fnName?: string,
  ) {}
  /** Values a generator function yields (set for generator function scopes). */
  yields?: Val[];
  /** The nearest enclosing function scope's return list. */
  returnList(): Val[] | undefined {
    return this.returns ?? this.parent?.returnList();
  }
  /** The nearest enclosing function scope's yield list (undefined outside generators). */
  yieldList(): Val[] | undefined {
    return this.returns ? this.yields : this.parent?.yieldList();
  }
  /** Whether `name` is declared in the function this scope belongs to (not a closure's variable). */
  declaresInFunction(name: string): boolean {
    if (this.vars.has(name)) return true;
    return !this.returns && !!this.parent?.declaresInFunction(name);
  }
  lookup(name: string): Val | undefined {
    return this.vars.get(name) ?? this.parent?.lookup(name);
  }
  /** Assigns to the nearest scope declaring `name`, or creates a global (sloppy-mode assignment). */
  assign(name: string, v: Val): void {
    if (!this.assignExisting(name, v)) this.root().vars.set(name, v);
  }
  private assignExisting(name: string, v: Val): boolean {
    if (this.vars.has(name)) {
      this.vars.set(name, v);
      return true;
    }
    return this.parent?.assignExisting(name, v) ?? false;
  }
  private root(): Scope {
    return this.parent ? this.parent.root() : this;
  }
}
