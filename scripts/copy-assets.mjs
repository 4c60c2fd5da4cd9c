// Copies non-TypeScript files that ship in the package (the golden JSON Schema) into dist/.
import { chmodSync, cpSync, existsSync } from 'node:fs';

const assets = ['transcript/golden.schema.json', 'record/standard-scenarios.json'];
for (const asset of assets) {
  if (existsSync(`src/${asset}`)) cpSync(`src/${asset}`, `dist/${asset}`);
}
chmodSync('dist/cli/main.js', 0o755);
