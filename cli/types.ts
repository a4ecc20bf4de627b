/** Shared shapes of the command-line client: what the inputs yield and what a check produces. */

/** Where a package appears in a lockfile (1-based line), for SARIF and readable output. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
}

export type LockfileFormat = 'npm' | 'yarn-classic' | 'yarn-berry' | 'pnpm' | 'spec';

/** One installed package version, merged across every place the input lists it. */
export interface InputPackage {
  readonly name: string;
  readonly version: string;
  /** True when a project (root or workspace) depends on it by name; undefined when the input cannot tell. */
  direct: boolean | undefined;
  /** True when only dev dependencies lead to it; undefined when the input cannot tell. */
  dev: boolean | undefined;
  readonly locations: SourceLocation[];
  /** When the registry published this version, when the input knows it (specs). */
  published?: string;
}

/** A dependency the client cannot look up (git, file, link, workspace...). */
export interface SkippedDependency {
  readonly name: string;
  readonly spec: string;
  readonly reason: string;
  readonly location?: SourceLocation;
}

export interface ParsedInput {
  /** Path as given or found, relative to the working directory when possible. */
  readonly source: string;
  readonly format: LockfileFormat;
  /** e.g. `3` for package-lock v3, `9.0` for pnpm, `8` for yarn berry metadata. */
  readonly formatVersion: string;
  readonly packages: InputPackage[];
  readonly skipped: SkippedDependency[];
  /** Specs the registry cannot answer: no such package, or no such version. */
  readonly notFound?: NotFoundSpec[];
}

/** A spec that names nothing installable: an answer of its own, never dropped. */
export interface NotFoundSpec {
  readonly spec: string;
  readonly name: string;
  readonly reason: 'no_such_package' | 'no_matching_version';
  readonly message: string;
  /** Real names (or name@version) the user may have meant. */
  readonly suggestions: string[];
}
