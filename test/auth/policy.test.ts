// The ownership rule every module applies: managers (owner, admin) act on the whole tenant, a
// member on what they created.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuthContext, Role } from '../../src/auth/context.ts';
import { mayManage, ownerScope } from '../../src/auth/policy.ts';

const as = (role: Role, userId = 'u1'): AuthContext => ({ tenantId: 't', userId, name: userId, email: null, role });

test('managers manage everything of the tenant; members what they created', () => {
  for (const role of ['owner', 'admin'] as const) {
    assert.equal(mayManage(as(role), { created_by: 'someone-else' }), true);
    assert.equal(ownerScope(as(role)), undefined);
  }
  assert.equal(mayManage(as('member'), { created_by: 'u1' }), true);
  assert.equal(mayManage(as('member'), { created_by: 'u2' }), false);
  assert.equal(ownerScope(as('member')), 'u1');
});
