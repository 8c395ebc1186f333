// The web app's API types are generated from the OpenAPI document (npm run web:types): this fails
// when a schema changed and the generated file was not written again.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { API_TYPES, generatedApiTypes } from '../../scripts/web-api-types.ts';

test('web/src/api-types.ts is what the OpenAPI document generates', async () => {
  const fresh = await generatedApiTypes();
  assert.ok(fresh === fs.readFileSync(API_TYPES, 'utf8'), 'web/src/api-types.ts is out of date: run `npm run web:types`');
});
