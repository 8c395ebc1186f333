// The shape of each demo tenant's business: country and channel mix, refunds, growth, weekly and
// yearly cycles, catalogue size. Two tenants that differ visibly: an EU web shop and a US omnichannel one.

export interface TenantProfile {
  id: string;
  /** Share of the requested rows. */
  weight: number;
  countries: [string, number][];
  /** Channel, weight, conversion in basis points of sessions. */
  channels: [string, number, number][];
  refundedPermille: number;
  cancelledPermille: number;
  growthPerYear: number;
  /** Monday … Sunday. */
  weekly: number[];
  products: number;
  /** Distinct customers per order. */
  customerRatio: number;
}

const EU: Omit<TenantProfile, 'id'> = {
  weight: 0.6,
  countries: [
    ['DE', 300],
    ['FR', 150],
    ['GB', 140],
    ['NL', 80],
    ['ES', 80],
    ['IT', 80],
    ['PL', 60],
    ['AT', 50],
    ['CH', 40],
    ['SE', 20],
  ],
  channels: [
    ['web', 500, 240],
    ['mobile', 300, 170],
    ['marketplace', 150, 420],
    ['retail', 50, 900],
  ],
  refundedPermille: 40,
  cancelledPermille: 30,
  growthPerYear: 0.4,
  weekly: [1.0, 0.97, 0.96, 1.0, 1.07, 1.16, 1.08],
  products: 400,
  customerRatio: 0.38,
};

const US: Omit<TenantProfile, 'id'> = {
  weight: 0.4,
  countries: [
    ['US', 550],
    ['CA', 120],
    ['GB', 100],
    ['DE', 60],
    ['AU', 60],
    ['MX', 40],
    ['FR', 30],
    ['JP', 20],
    ['BR', 20],
  ],
  channels: [
    ['web', 350, 200],
    ['mobile', 250, 150],
    ['marketplace', 250, 380],
    ['retail', 150, 1100],
  ],
  refundedPermille: 60,
  cancelledPermille: 20,
  growthPerYear: 0.2,
  weekly: [0.95, 0.95, 0.97, 1.0, 1.1, 1.12, 0.98],
  products: 250,
  customerRatio: 0.3,
};

export function profileFor(tenantId: string, index: number): TenantProfile {
  if (tenantId === 'demo') return { id: tenantId, ...EU };
  if (tenantId === 'acme') return { id: tenantId, ...US };
  return { id: tenantId, ...(index % 2 === 0 ? EU : US), weight: 0.5 };
}

export const CATEGORIES: { name: string; minCents: number; maxCents: number; nouns: string[] }[] = [
  { name: 'Electronics', minCents: 1999, maxCents: 89999, nouns: ['Headphones', 'Speaker', 'Charger', 'Monitor', 'Keyboard', 'Camera'] },
  { name: 'Home & Kitchen', minCents: 999, maxCents: 24999, nouns: ['Kettle', 'Pan', 'Knife Set', 'Blender', 'Mug', 'Lamp'] },
  { name: 'Fashion', minCents: 1499, maxCents: 19999, nouns: ['Jacket', 'Sneakers', 'T-Shirt', 'Jeans', 'Scarf', 'Backpack'] },
  { name: 'Beauty', minCents: 599, maxCents: 8999, nouns: ['Serum', 'Shampoo', 'Lipstick', 'Cream', 'Perfume'] },
  { name: 'Sports', minCents: 999, maxCents: 39999, nouns: ['Yoga Mat', 'Bottle', 'Dumbbells', 'Racket', 'Bike Light'] },
  { name: 'Toys', minCents: 799, maxCents: 12999, nouns: ['Puzzle', 'Building Set', 'Doll', 'Board Game', 'Plush'] },
  { name: 'Books', minCents: 499, maxCents: 4999, nouns: ['Cookbook', 'Novel', 'Guide', 'Atlas', 'Notebook'] },
  { name: 'Garden', minCents: 899, maxCents: 29999, nouns: ['Hose', 'Planter', 'Shears', 'Seeds', 'Grill'] },
  { name: 'Grocery', minCents: 199, maxCents: 3999, nouns: ['Coffee', 'Tea', 'Olive Oil', 'Chocolate', 'Granola'] },
  { name: 'Pet Supplies', minCents: 499, maxCents: 9999, nouns: ['Leash', 'Bowl', 'Cat Tree', 'Dog Bed', 'Treats'] },
];

export const BRANDS = [
  'Acorn',
  'Borealis',
  'Cobalt',
  'Dune',
  'Ember',
  'Fjord',
  'Granite',
  'Halo',
  'Indigo',
  'Juniper',
  'Kestrel',
  'Lumen',
  'Meridian',
  'Nimbus',
  'Orchid',
  'Pioneer',
];
export const ADJECTIVES = ['Classic', 'Pro', 'Mini', 'Ultra', 'Eco', 'Smart', 'Travel', 'Deluxe', 'Essential', 'Max'];

/** Share of orders per UTC hour (per mille, sums to 1000): quiet nights, an evening peak. */
export const HOURS = [10, 6, 4, 3, 3, 5, 12, 25, 40, 50, 55, 58, 62, 60, 56, 55, 58, 64, 72, 80, 82, 70, 45, 25];
