// Module hooks (registered by node20-glob-sync.mjs): every `import ... from 'fs'` outside this folder gets
// node:fs plus `globSync` from ./glob.mjs. Node 20's ES facade of a builtin has a fixed list of names, so
// adding `fs.globSync` at run time does not reach a named import; a resolve hook does.

const SHIM = 'mcp-golden-shim:fs-with-glob-sync';
const here = new URL('./', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const fromShim = context.parentURL === SHIM || context.parentURL?.startsWith(here);
  if ((specifier === 'fs' || specifier === 'node:fs') && !fromShim) return { url: SHIM, shortCircuit: true };
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (url !== SHIM) return nextLoad(url, context);
  const fs = await import('node:fs');
  const names = Object.keys(fs).filter(
    (name) => name !== 'default' && name !== 'globSync' && /^[A-Za-z_$][\w$]*$/.test(name),
  );
  const source = [
    "import fs from 'node:fs';",
    `import { globSync } from ${JSON.stringify(new URL('./glob.mjs', import.meta.url).href)};`,
    'export default fs;',
    `export const { ${names.join(', ')} } = fs;`,
    'export { globSync };',
  ].join('\n');
  return { format: 'module', source, shortCircuit: true };
}
