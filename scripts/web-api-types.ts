// Writes web/src/api-types.ts, the web app's types of the API, from the OpenAPI document the
// server serves (the same schemas it validates with). `npm run web:types`; a test fails when the
// file and the document drift apart (test/web/api-types.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildTestApp } from '../test/helpers/app.ts';

export const API_TYPES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../web/src/api-types.ts');

export async function generatedApiTypes(): Promise<string> {
  const t = await buildTestApp();
  try {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const body = astToString(await openapiTS(doc, { alphabetize: true }));
    return `// Generated from GET /api/v1/openapi.json by \`npm run web:types\`: do not edit.\n/* eslint-disable */\n${body}`;
  } finally {
    await t.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(API_TYPES, await generatedApiTypes());
  console.log(`Wrote ${API_TYPES}`);
}
