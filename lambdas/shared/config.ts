/** Configuration read once, at module scope: a missing variable fails at cold start, not later. */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Environment variable ${name} is not set`);
  return value;
}

export function flagEnv(name: string): boolean {
  return process.env[name] === '1' || process.env[name] === 'true';
}
