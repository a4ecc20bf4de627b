import { readFile } from 'node:fs/promises';
import { stripTypeScriptTypes } from 'node:module';

const BANNER = '/* compiled by ts-strip-loader; see the source map for the original file */\n';

export async function resolve(specifier, context, next) {
  if (specifier.endsWith('.js') && !specifier.includes('/node_modules/')) {
    try {
      return await next(specifier.replace(/\.js$/, '.ts'), context);
    } catch {
      // fall through to the .js file
    }
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts') || url.includes('/node_modules/')) return next(url, context);
  const source = await readFile(new URL(url), 'utf8');
  const code = stripTypeScriptTypes(source, { mode: 'transform', sourceMap: true });
  return { format: 'module', source: BANNER + code + '\n//# sourceURL=' + url, shortCircuit: true };
}
