// The demo shop with row-level access: orders (and so everything joined to them) visible only in
// the caller's countries, through the `country` attribute (docs/model.md "Row-level access").
import fs from 'node:fs';
import { DEMO_MODEL_PATH, modelFromText, type SemanticModel } from '../../src/semantic/model.ts';

export function rowAccessModel(): SemanticModel {
  const text = fs
    .readFileSync(DEMO_MODEL_PATH, 'utf8')
    .replace(
      '  - name: orders\n    sql_table: orders\n    tenant_column: tenant_id\n',
      '  - name: orders\n    sql_table: orders\n    tenant_column: tenant_id\n    access_filters:\n      - dimension: country\n        attribute: country\n',
    );
  if (!text.includes('attribute: country')) throw new Error('the demo model changed: the access filter was not inserted');
  return modelFromText(text, 'demo-row-access.yml');
}
