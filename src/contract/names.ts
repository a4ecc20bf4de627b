/**
 * One validator for package names and version selectors, used by every API route, the scan
 * queue's consumer and the command-line client. npm's own rules (validate-npm-package-name, names
 * up to 214 characters, scoped names) decide; the checks never throw, whatever the input (a lone
 * surrogate makes npm's validator throw a URIError), and what they say about a bad value quotes at
 * most a short prefix of it.
 */
// Single functions, not the whole of semver: this module is in every read bundle.
import validVersion from 'semver/functions/valid';
import validRange from 'semver/ranges/valid';
import validatePackageName from 'validate-npm-package-name';

/** npm's limit on the length of a package name. */
export const NAME_MAX_LENGTH = 214;
/** Longest version or dist-tag accepted (semver strings are far shorter in practice). */
export const VERSION_MAX_LENGTH = 256;

const DIST_TAG = /^[A-Za-z][A-Za-z0-9._-]{0,127}$/;

/** A short, printable prefix of attacker-supplied text for an error message. */
export function quoted(value: string, max = 40): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const shown = value.slice(0, max).replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return `'${shown}${value.length > max ? '…' : ''}'`;
}

/** Why `name` is not a package name the registry could hold, or undefined when it is one. */
export function packageNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'must be a string';
  if (name.length === 0) return 'must not be empty';
  if (name.length > NAME_MAX_LENGTH) return `is longer than ${NAME_MAX_LENGTH} characters (npm's limit)`;
  let result: ReturnType<typeof validatePackageName>;
  try {
    result = validatePackageName(name);
  } catch {
    return 'is not valid text (it contains a lone surrogate or other invalid UTF-16)';
  }
  if (result.validForOldPackages) return undefined;
  const why = [...(result.errors ?? []), ...(result.warnings ?? [])][0] ?? 'invalid';
  return `is not a valid npm package name: ${why}`;
}

export type VersionSelector = { kind: 'exact'; version: string } | { kind: 'tag'; tag: string };

/** An exact semver version (a leading `v` dropped) or a dist-tag; a reason when it is neither. */
export function versionSelector(raw: unknown): VersionSelector | { problem: string } {
  if (typeof raw !== 'string') return { problem: 'must be a string' };
  if (raw.length === 0) return { problem: 'must not be empty' };
  if (raw.length > VERSION_MAX_LENGTH) return { problem: `is longer than ${VERSION_MAX_LENGTH} characters` };
  const exact = validVersion(raw);
  if (exact !== null) return { kind: 'exact', version: exact };
  if (DIST_TAG.test(raw) && validRange(raw) === null) return { kind: 'tag', tag: raw };
  return { problem: `must be an exact semver version or a dist-tag, got ${quoted(raw)}` };
}
