// `node --import ./scripts/conformance/node20-glob-sync.mjs`: on a Node without `fs.globSync` (Node 20),
// registers the hooks that give the conformance suite's `import { globSync } from 'fs'` one.
import * as fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') register('./fs-glob-hooks.mjs', import.meta.url);
