#!/usr/bin/env node
// pkgscan from source: the TypeScript client run through tsx's loader (see docs/cli.md).
// `npm run build:cli` makes the one-file build, dist/pkgscan.mjs, which needs nothing installed.
import { register } from 'tsx/esm/api';

register();
await import('../cli/bin.ts');
