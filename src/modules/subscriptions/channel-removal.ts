// What deleting a channel does to the subscriptions that send to it (docs/notifications.md): its
// insight subscriptions are deleted, dashboard subscriptions drop it and switch off when left with
// none. Runs inside the channels module's delete transaction, so it uses that transaction (on
// PGlite, the one connection).
import type { Queryable } from '../../db/index.ts';
import { DashboardSubscriptionsRepository } from './dashboard-subscriptions.repository.ts';
import { InsightSubscriptionsRepository } from './insight-subscriptions.repository.ts';

export async function dropChannelFromSubscriptions(tx: Queryable, tenantId: string, channelId: string): Promise<void> {
  await new InsightSubscriptionsRepository(tx).deleteByChannel(tenantId, channelId);
  await new DashboardSubscriptionsRepository(tx).removeChannel(tenantId, channelId);
}
