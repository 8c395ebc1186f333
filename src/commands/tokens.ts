// `insights token create|list|revoke` and `insights jwt`: credentials for the API, checked by the
// same rules as the server applies (a token or JWT the server would refuse is never made).
import { SignJWT } from 'jose';
import { isRole, isTenantId, isUserId, TENANT_ID_RULE, USER_ID_RULE } from '../auth/context.ts';
import { need, options, UsageError, type Command } from './args.ts';
import { withTokens } from './open.ts';

export const token: Command = async (config, args) => {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { values } = options(rest, ['tenant', 'user', 'role', 'name', 'email']);
    const role = need(values, 'role').toLowerCase();
    if (!isRole(role)) throw new UsageError('--role must be owner, admin or member');
    const tenantId = need(values, 'tenant');
    const userId = need(values, 'user');
    if (!isTenantId(tenantId)) throw new UsageError(`--tenant must be ${TENANT_ID_RULE}`);
    if (!isUserId(userId)) throw new UsageError(`--user must be ${USER_ID_RULE}`);
    const { token, view } = await withTokens(config, (t) =>
      t.create({
        tenantId,
        userId,
        userName: values.name,
        email: values.email ?? null,
        role,
        name: values.name ?? `cli token for ${userId}`,
      }),
    );
    console.log(`Created token ${view.id} for ${view.user_id} (${view.role}) in tenant ${view.tenant_id}:`);
    console.log(token);
    return;
  }
  if (sub === 'list') {
    const { values } = options(rest, ['tenant']);
    const list = await withTokens(config, (t) => t.list(values.tenant));
    for (const t of list) {
      console.log([t.id, t.tenant_id, t.user_id, t.role, t.token_masked, t.revoked_at ? 'revoked' : 'active', t.name].join('\t'));
    }
    return;
  }
  if (sub === 'revoke') {
    const id = rest[0];
    if (!id) throw new UsageError('token revoke needs the token id');
    const ok = await withTokens(config, (t) => t.revoke(id));
    if (!ok) throw new UsageError(`No token with id ${id}`);
    console.log(`Revoked ${id}.`);
    return;
  }
  throw new UsageError('token needs create, list or revoke');
};

export const jwt: Command = async (config, args) => {
  const { values } = options(args, ['tenant', 'user', 'role', 'ttl', 'name', 'email']);
  if (!config.jwt.secret) throw new UsageError('INSIGHTS_JWT_SECRET must be set to mint a JWT');
  const role = need(values, 'role').toLowerCase();
  if (!isRole(role)) throw new UsageError('--role must be owner, admin or member');
  const ttl = values.ttl ?? '1h';
  if (!/^\d+[smhd]$/.test(ttl)) throw new UsageError('--ttl must look like 30m, 1h or 7d');
  const tenantId = need(values, 'tenant');
  const userId = need(values, 'user');
  // The server refuses a JWT whose claims break these rules: refuse to mint one.
  if (!isTenantId(tenantId)) throw new UsageError(`--tenant must be ${TENANT_ID_RULE}`);
  if (!isUserId(userId)) throw new UsageError(`--user must be ${USER_ID_RULE}`);
  let jwt = new SignJWT({ tenant_id: tenantId, role, name: values.name, email: values.email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(ttl);
  if (config.jwt.issuer) jwt = jwt.setIssuer(config.jwt.issuer);
  if (config.jwt.audience) jwt = jwt.setAudience(config.jwt.audience);
  console.log(await jwt.sign(config.jwt.secret));
};
