// Writes models/model.schema.json from the TypeBox definitions the loader validates with
// (npm run model:schema); test/semantic/model.test.ts fails when the file is out of date.
import fs from 'node:fs';
import { modelJsonSchema } from '../src/semantic/model.schema.ts';

const file = new URL('../models/model.schema.json', import.meta.url);
fs.writeFileSync(file, JSON.stringify(modelJsonSchema(), null, 2) + '\n');
console.log(`Wrote ${file.pathname}`);
