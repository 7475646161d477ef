// Writes saboteur.schema.json (the JSON Schema of saboteur.yml) from the zod schema: `npm run schema`.
import { writeFileSync } from 'node:fs';
import { configJsonSchemaText, SCHEMA_FILE } from '../src/config/json-schema.js';

writeFileSync(SCHEMA_FILE, configJsonSchemaText());
console.log(`wrote ${SCHEMA_FILE}`);
