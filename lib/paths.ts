/**
 * Paths of the project the stack is built from. Works both as ESM (tsx, `cdk synth`) and as the
 * CommonJS that jest's esbuild transform produces, where `import.meta` is empty.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));

/** Repository root: the folder holding package.json and package-lock.json. */
export const PROJECT_ROOT = resolve(here, '..');

/** npm lock file: NodejsFunction fingerprints it and runs esbuild from its folder. */
export const LOCK_FILE = join(PROJECT_ROOT, 'package-lock.json');

/** Folder of the Lambda entry points, one `<handler>.ts` per route. */
export const HANDLERS_DIR = join(PROJECT_ROOT, 'lambdas', 'handlers');

/** Entry file of a handler named in `lambdas/routes.ts`. */
export function handlerEntry(handler: string, handlersDir: string = HANDLERS_DIR): string {
  return join(handlersDir, `${handler}.ts`);
}
