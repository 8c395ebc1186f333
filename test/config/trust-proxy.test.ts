// INSIGHTS_TRUST_PROXY (docs/security.md "Rate limits"): unset, forwarded headers are ignored; set,
// it is true, a number of hops, or the proxies' addresses and CIDRs; anything else names the setting.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/index.ts';

test('INSIGHTS_TRUST_PROXY: off by default; true, hops, addresses and CIDRs; anything else refused naming it', () => {
  assert.equal(loadConfig({}).trustProxy, false);
  assert.equal(loadConfig({ INSIGHTS_TRUST_PROXY: 'false' }).trustProxy, false);
  assert.equal(loadConfig({ INSIGHTS_TRUST_PROXY: 'true' }).trustProxy, true);
  assert.equal(loadConfig({ INSIGHTS_TRUST_PROXY: '2' }).trustProxy, 2);
  assert.deepEqual(loadConfig({ INSIGHTS_TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,::1,fd00::/8' }).trustProxy, [
    '10.0.0.0/8',
    '192.0.2.7',
    '::1',
    'fd00::/8',
  ]);
  for (const bad of ['yes', '10.0.0.0/33', '10.0.0/8', 'proxy.example', '0', '1.2.3.4/8/1', '::1/129']) {
    assert.throws(
      () => loadConfig({ INSIGHTS_TRUST_PROXY: bad }),
      (err: unknown) => err instanceof ConfigError && err.variable === 'INSIGHTS_TRUST_PROXY',
      bad,
    );
  }
});
