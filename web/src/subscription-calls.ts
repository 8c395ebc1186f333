// What a subscription row does to either kind (pause or resume, send now, delete): the same three
// calls on two paths that name the subscription differently (an insight subscription's {id}, a
// dashboard report's {subId}), each typed by its path.
import { api, bodyOf } from './api.ts';
import type { DashboardSubscription, InsightSubscription } from './types.ts';

export interface SubscriptionCalls<T> {
  setActive(id: string, isActive: boolean): Promise<T>;
  send(id: string): Promise<unknown>;
  remove(id: string): Promise<unknown>;
}

export const insightSubscriptionCalls: SubscriptionCalls<InsightSubscription> = {
  setActive: (id, isActive) =>
    bodyOf(api.PATCH('/api/v1/notifications/subscriptions/{id}', { params: { path: { id } }, body: { is_active: isActive } })),
  send: (id) => bodyOf(api.POST('/api/v1/notifications/subscriptions/{id}/send', { params: { path: { id } }, body: {} })),
  remove: (id) => bodyOf(api.DELETE('/api/v1/notifications/subscriptions/{id}', { params: { path: { id } } })),
};

export const dashboardSubscriptionCalls: SubscriptionCalls<DashboardSubscription> = {
  setActive: (subId, isActive) =>
    bodyOf(api.PATCH('/api/v1/dashboards/subscriptions/{subId}', { params: { path: { subId } }, body: { is_active: isActive } })),
  send: (subId) => bodyOf(api.POST('/api/v1/dashboards/subscriptions/{subId}/send', { params: { path: { subId } }, body: {} })),
  remove: (subId) => bodyOf(api.DELETE('/api/v1/dashboards/subscriptions/{subId}', { params: { path: { subId } } })),
};
