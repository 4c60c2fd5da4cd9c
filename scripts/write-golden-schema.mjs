// Writes src/transcript/golden.schema.json from the zod schemas (src/transcript/golden-schema.ts),
// and src/record/scenario.schema.json from the session scenario's (src/record/scenario-session.ts),
// through the built dist/. `npm run schema` runs it; a test fails when a committed file differs.
import { writeFileSync } from 'node:fs';
import { sessionScenarioJsonSchema } from '../dist/record/scenario-session.js';
import { goldenJsonSchema } from '../dist/transcript/golden-schema.js';

writeFileSync('src/transcript/golden.schema.json', `${JSON.stringify(goldenJsonSchema(), null, 2)}\n`);
writeFileSync('src/record/scenario.schema.json', `${JSON.stringify(sessionScenarioJsonSchema(), null, 2)}\n`);
