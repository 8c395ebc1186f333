import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { EgressGuard, EgressRefused, EgressTimeout, EgressTooLarge, EgressNetworkError } from '../../src/adapters/egress.ts';

describe('egress guard', () => {
  let server: http.Server;
  let port: number;
  let resets = 0;
  let unavailable = 0;
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
        return res.end();
      }
      if (req.url === '/big') {
        res.writeHead(200);
        return res.end(Buffer.alloc(2 * 1024 * 1024, 97));
      }
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000);
      // The connection breaks under the first request of each pair (a keep-alive socket closed as it is reused).
      if (req.url === '/reset') return void (resets++ % 2 === 0 ? req.socket.destroy() : res.end('ok'));
      if (req.url === '/unavailable') {
        unavailable++;
        res.writeHead(503);
        return res.end();
      }
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  after(() => server.close());

  test('classifies addresses: refuses loopback, private, link-local, metadata, mapped and NAT64 forms', () => {
    const g = new EgressGuard();
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '::1',
      '::',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      '224.0.0.1',
      'not-an-ip',
    ]) {
      assert.equal(g.isAllowed(a), false, a);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) assert.equal(g.isAllowed(a), true, a);
    const allowed = new EgressGuard(['127.0.0.0/8', '10.0.0.0/8']);
    assert.equal(allowed.isAllowed('127.0.0.1'), true);
    assert.equal(allowed.isAllowed('::ffff:127.0.0.1'), true);
    assert.equal(allowed.isAllowed('10.9.9.9'), true);
    assert.equal(allowed.isAllowed('192.168.0.1'), false);
  });

  test('IPv6 forms that carry an IPv4 address are judged by that address, allow list included', () => {
    const g = new EgressGuard();
    const listed = new EgressGuard(['127.0.0.0/8']);
    // [address, allowed by default, allowed with 127.0.0.0/8 listed]
    const cases: [string, boolean, boolean][] = [
      ['::127.0.0.1', false, true], // IPv4-compatible: Linux routes it to the host itself
      ['::7f00:1', false, true],
      ['::a00:1', false, false], // ::10.0.0.1
      ['::a9fe:a9fe', false, false], // ::169.254.169.254
      ['::808:808', true, true],
      ['::ffff:0:7f00:1', false, true], // IPv4-translated (SIIT)
      ['::ffff:0:808:808', true, true],
      ['64:ff9b::7f00:1', false, true], // NAT64, well-known prefix
      ['64:ff9b::a9fe:a9fe', false, false],
      ['64:ff9b::c0a8:101', false, false], // 192.168.1.1
      ['64:ff9b::808:808', true, true],
      ['64:ff9b:1::a00:1', false, false], // NAT64, local-use prefix: every RFC 6052 reading must be public
      ['64:ff9b:1:a00:1::', false, false],
      ['2002:7f00:1::1', false, true], // 6to4
      ['2002:a00:1::1', false, false],
      ['2002:808:808::1', true, true],
      ['2001:0:7f00:1::80ff:fffe', false, true], // Teredo: server and client (inverted) 127.0.0.1
      ['2001:0:7f00:1::f5ff:fffe', false, false], // server 127.0.0.1, client 10.0.0.1
      ['2001:0:808:808::f5ff:fffe', false, false], // server public, client 10.0.0.1
      ['2001:0:808:808::f7f7:f7f7', true, true], // both public
      ['::1', false, false],
      ['::', false, false],
      ['2606:4700:4700::1111', true, true],
    ];
    for (const [address, byDefault, withList] of cases) {
      assert.equal(g.isAllowed(address), byDefault, address);
      assert.equal(listed.isAllowed(address), withList, `${address} with 127.0.0.0/8 listed`);
    }
    // Listing the IPv6 prefix itself lets the whole prefix through.
    assert.equal(new EgressGuard(['64:ff9b:1::/48']).isAllowed('64:ff9b:1:a00:1::'), true);
  });

  test('an IPv4-compatible or NAT64 literal of loopback is refused before connecting', async () => {
    const g = new EgressGuard();
    for (const url of [
      `http://[::127.0.0.1]:${port}/`,
      'https://[::127.0.0.1]/',
      `http://[64:ff9b::7f00:1]:${port}/`,
      `http://[2002:7f00:1::1]:${port}/`,
      `http://[::ffff:0:7f00:1]:${port}/`,
    ]) {
      await assert.rejects(g.request(url), EgressRefused, url);
    }
    await g.close();
  });

  test('refuses loopback by IP literal, by name, and by numeric forms unless allowed', async () => {
    const g = new EgressGuard();
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://2130706433:${port}/`,
      `http://0x7f.1:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
    ]) {
      await assert.rejects(g.request(url), EgressRefused, url);
    }
    await g.close();
  });

  test('retryOnReset: a request whose connection breaks is sent once more at once; statuses are not retried', async () => {
    const g = new EgressGuard(['127.0.0.0/8']);
    resets = 0;
    const res = await g.request(`http://127.0.0.1:${port}/reset`, { method: 'POST', body: '{}', retryOnReset: true });
    assert.equal(res.status, 200);
    assert.equal(resets, 2, 'sent twice');
    resets = 0;
    await assert.rejects(
      g.request(`http://127.0.0.1:${port}/reset`, { method: 'POST', body: '{}' }),
      EgressNetworkError,
      'not retried unless asked',
    );
    assert.equal(resets, 1);
    unavailable = 0;
    assert.equal((await g.request(`http://127.0.0.1:${port}/unavailable`, { method: 'POST', body: '{}', retryOnReset: true })).status, 503);
    assert.equal(unavailable, 1, 'a status goes back to the caller, whose backoff decides');
    await g.close();
  });

  test('allowed CIDR: request goes through; POST body and headers arrive', async () => {
    const g = new EgressGuard(['127.0.0.0/8']);
    const res = await g.request(`http://localhost:${port}/x`, { method: 'POST', body: 'hello', headers: { authorization: 'Bearer k' } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { method: 'POST', body: 'hello', auth: 'Bearer k' });
    await g.close();
  });

  test('redirects are not followed, too large bodies and timeouts fail clearly', async () => {
    const g = new EgressGuard(['127.0.0.0/8']);
    const r = await g.request(`http://127.0.0.1:${port}/redirect`);
    assert.equal(r.status, 302);
    await assert.rejects(g.request(`http://127.0.0.1:${port}/big`), EgressTooLarge);
    await assert.rejects(g.request(`http://127.0.0.1:${port}/slow`, { timeoutMs: 200 }), EgressTimeout);
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    await assert.rejects(
      g.request(`http://127.0.0.1:${closedPort}/`),
      (e: Error) => e instanceof EgressNetworkError && /refused/.test(e.message),
    );
    await assert.rejects(g.request(`ftp://127.0.0.1/`), EgressRefused);
    await g.close();
  });
});
