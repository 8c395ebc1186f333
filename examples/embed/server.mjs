// A SaaS product's backend, in one file: it knows who is signed in to *its* app and signs a
// short-lived embed token for them (docs/embedding.md). Run it beside the Insights service:
//
//   INSIGHTS_URL=http://127.0.0.1:8080 \
//   DEMO_KEY_ID=… DEMO_KEY_SECRET=… ACME_KEY_ID=… ACME_KEY_SECRET=… \
//   DEMO_DASHBOARD=… ACME_DASHBOARD=… node examples/embed/server.mjs
//
// then open http://localhost:3000/?user=ann and http://localhost:3000/?user=bob.
// Only `jose` is needed (npm install jose); the signing secrets never reach the browser.
import http from 'node:http';
import { SignJWT } from 'jose';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`set ${name} (see docs/embedding.md)`);
  return v;
};
const SERVICE = process.env.INSIGHTS_URL ?? 'http://127.0.0.1:8080';
const PORT = Number(process.env.PORT ?? 3000);

// Your customers (our tenants) and their users. Each customer has its own embedding key; a user
// carries the attributes that the model's access_filters read (here: the countries they may see).
const CUSTOMERS = {
  demo: { key: { id: env('DEMO_KEY_ID'), secret: env('DEMO_KEY_SECRET') }, dashboard: env('DEMO_DASHBOARD') },
  acme: { key: { id: env('ACME_KEY_ID'), secret: env('ACME_KEY_SECRET') }, dashboard: env('ACME_DASHBOARD') },
};
const USERS = {
  ann: { customer: 'demo', name: 'Ann (demo, Germany)', attributes: { country: 'DE' } },
  bob: { customer: 'acme', name: 'Bob (acme, France and Spain)', attributes: { country: ['FR', 'ES'] } },
};

/** The embed token for one user and one resource: HS256 with the customer's key, kid = key id, 10 minutes. */
function embedToken(userId, resource, filters) {
  const user = USERS[userId];
  const { key } = CUSTOMERS[user.customer];
  return new SignJWT({ resource, attributes: user.attributes, ...(filters ? { filters } : {}) })
    .setProtectedHeader({ alg: 'HS256', kid: key.id })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(key.secret));
}

const page = (userId, dashboardToken, chatToken) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>My SaaS — analytics</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<script src="${SERVICE}/embed/insights.js" defer></script>
<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:20px auto;padding:0 12px} nav a{margin-right:12px}</style>
</head><body>
<nav>${Object.keys(USERS)
  .map((u) => `<a href="/?user=${u}">${USERS[u].name}</a>`)
  .join('')}</nav>
<h1>Hello ${USERS[userId].name}</h1>
<h2>Your sales</h2>
<insights-dashboard token="${dashboardToken}" accent="#0f766e"></insights-dashboard>
<h2>Ask your data</h2>
<insights-chat token="${chatToken}"></insights-chat>
</body></html>`;

http
  .createServer(async (req, res) => {
    const url = new URL(req.url, `http://localhost:${PORT}`);
    // Your app's own sign-in decides who this is; ?user= stands in for it here.
    const userId = USERS[url.searchParams.get('user')] ? url.searchParams.get('user') : 'ann';
    const customer = CUSTOMERS[USERS[userId].customer];
    const html = page(userId, await embedToken(userId, `dashboard:${customer.dashboard}`), await embedToken(userId, 'chat'));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' });
    res.end(html);
  })
  .listen(PORT, () => console.log(`Host app on http://localhost:${PORT}/?user=ann (and ?user=bob)`));
