// Writes src/transcript/golden.schema.json from the zod schemas (src/transcript/golden-schema.ts),
// through the built dist/. `npm run schema` runs it; a test fails when the committed file differs.
import { writeFileSync } from 'node:fs';
import { goldenJsonSchema } from '../dist/transcript/golden-schema.js';

writeFileSync('src/transcript/golden.schema.json', `${JSON.stringify(goldenJsonSchema(), null, 2)}\n`);
