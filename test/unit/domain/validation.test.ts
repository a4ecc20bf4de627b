import { HttpError } from '../../../lambdas/shared/domain/errors';
import {
  assertRegistry,
  decodeNameParam,
  parseListParams,
  parseVersionSelector,
} from '../../../lambdas/shared/domain/validation';

function errorOf(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected an HttpError');
}

describe('parseListParams', () => {
  it('applies defaults', () => {
    expect(parseListParams(null)).toEqual({ limit: 50, offset: 0, q: undefined });
  });

  it('clamps limit to 100 and lower-cases q', () => {
    expect(parseListParams({ limit: ['200'], offset: ['5'], q: [' ReAct '] })).toEqual({
      limit: 100,
      offset: 5,
      q: 'react',
    });
  });

  it('treats an empty q as a list', () => {
    expect(parseListParams({ q: [''] }).q).toBeUndefined();
  });

  it.each([
    [{ limit: ['abc'] }, 'limit'],
    [{ limit: ['0'] }, 'limit'],
    [{ limit: ['-1'] }, 'limit'],
    [{ limit: ['10abc'] }, 'limit'],
    [{ limit: ['1.5'] }, 'limit'],
    [{ limit: ['1', '2'] }, 'limit'],
    [{ offset: ['x'] }, 'offset'],
    [{ offset: ['-3'] }, 'offset'],
    [{ q: ['a'.repeat(215)] }, 'q'],
    [{ ofset: ['10'] }, 'ofset'],
  ])('rejects %j naming %s', (params, name) => {
    const error = errorOf(() => parseListParams(params));
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain(name);
  });
});

describe('decodeNameParam', () => {
  it.each([
    ['%40scope%2Fname', '@scope/name'],
    ['@scope%2Fname', '@scope/name'],
    ['@scope/name', '@scope/name'],
    ['left-pad', 'left-pad'],
    ['JSONStream', 'JSONStream'],
  ])('reads %s as %s', (raw, name) => {
    expect(decodeNameParam(raw)).toBe(name);
  });

  it.each(['%E0%A4%A', '..', 'has space', '%2e%2e', '.hidden', 'a/b/c'])('rejects %s with 400', (raw) => {
    expect(errorOf(() => decodeNameParam(raw)).statusCode).toBe(400);
  });
});

describe('parseVersionSelector', () => {
  it('normalises exact versions', () => {
    expect(parseVersionSelector('v1.2.3', 'version')).toEqual({ kind: 'exact', version: '1.2.3' });
    expect(parseVersionSelector('1.0.0-beta.1', 'version')).toEqual({
      kind: 'exact',
      version: '1.0.0-beta.1',
    });
  });

  it('accepts dist-tags', () => {
    expect(parseVersionSelector('latest', 'version')).toEqual({ kind: 'tag', tag: 'latest' });
    expect(parseVersionSelector('next', 'version')).toEqual({ kind: 'tag', tag: 'next' });
  });

  it.each(['^1.0.0', '1.x', '>=2', '1.0', '', '../etc'])('rejects %j', (raw) => {
    expect(errorOf(() => parseVersionSelector(raw, 'version')).message).toContain('version');
  });
});

describe('assertRegistry', () => {
  it('defaults to npm and rejects others, listing the supported ones', () => {
    expect(assertRegistry(undefined, 'registry')).toBe('npm');
    expect(errorOf(() => assertRegistry('pypi', 'registry')).message).toMatch(/pypi.*supported: npm/);
  });
});
