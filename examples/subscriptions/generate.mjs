// Writes this example's data files: a small software-as-a-service business with four plans,
// 80 accounts signing up over 2025 and 2026, some of them churning, and one invoice per account
// and month while it is active. Deterministic (a fixed seed), so the committed files can be
// re-made byte for byte: `node examples/subscriptions/generate.mjs`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
let seed = 20260101;
// mulberry32: a tiny PRNG whose sequence depends only on the seed.
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (xs) => xs[Math.floor(random() * xs.length)];
const pad = (n) => String(n).padStart(2, '0');
const day = (y, m, d) => `${y}-${pad(m)}-${pad(d)}`;

const plans = [
  { plan_id: 1, plan: 'Starter', monthly_price: 29 },
  { plan_id: 2, plan: 'Team', monthly_price: 99 },
  { plan_id: 3, plan: 'Business', monthly_price: 299 },
  { plan_id: 4, plan: 'Enterprise', monthly_price: 999 },
];
const industries = ['Healthcare', 'Education', 'Finance', 'Retail', 'Media'];
const names = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Hooli',
  'Vandelay',
  'Stark',
  'Wayne',
  'Wonka',
  'Tyrell',
  'Cyberdyne',
  'Soylent',
  'Gringotts',
  'Oscorp',
  'Duff',
  'Nakatomi',
];
const suffixes = ['Labs', 'Group', 'Health', 'Media', 'Partners'];

// Months are counted from January 2025 (0) to October 2026 (21), the last invoiced month.
const LAST_MONTH = 21;
const ym = (i) => ({ y: 2025 + Math.floor(i / 12), m: (i % 12) + 1 });

const accounts = [];
const invoices = [];
for (let id = 1; id <= 80; id++) {
  const plan = plans[Math.min(3, Math.floor(random() * random() * 5))];
  const start = Math.floor(random() * 18);
  const churnMonth = random() < 0.3 ? start + 1 + Math.floor(random() * (LAST_MONTH - start)) : undefined;
  const s = ym(start);
  const signed = day(s.y, s.m, 1 + Math.floor(random() * 28));
  let churned = '';
  if (churnMonth !== undefined && churnMonth <= LAST_MONTH) {
    const c = ym(churnMonth);
    churned = day(c.y, c.m, 1 + Math.floor(random() * 28));
  }
  accounts.push({
    account_id: id,
    company: `${names[(id - 1) % names.length]} ${suffixes[Math.floor((id - 1) / names.length)]}`,
    industry: pick(industries),
    plan_id: plan.plan_id,
    signed_up_at: signed,
    churned_at: churned,
  });
  // One invoice a month from the month after sign-up until the month of churn (not included).
  const end = churned ? churnMonth - 1 : LAST_MONTH;
  for (let i = start + 1; i <= end; i++) {
    const { y, m } = ym(i);
    // Yearly prepay discount on some accounts: 15 % off.
    const amount = id % 5 === 0 ? Math.round(plan.monthly_price * 85) / 100 : plan.monthly_price;
    invoices.push({ invoice_id: invoices.length + 1, account_id: id, invoiced_at: day(y, m, 1), amount });
  }
}

const csv = (rows) => [Object.keys(rows[0]).join(','), ...rows.map((r) => Object.values(r).join(','))].join('\n') + '\n';
fs.writeFileSync(path.join(dir, 'plans.csv'), csv(plans));
fs.writeFileSync(path.join(dir, 'accounts.csv'), csv(accounts));
// Invoices as NDJSON: the loader reads both formats.
fs.writeFileSync(path.join(dir, 'invoices.ndjson'), invoices.map((r) => JSON.stringify(r)).join('\n') + '\n');
console.log(
  `plans ${plans.length}, accounts ${accounts.length} (${accounts.filter((a) => a.churned_at).length} churned), invoices ${invoices.length}`,
);
