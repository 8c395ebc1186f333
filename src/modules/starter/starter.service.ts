import { requireRole, type AuthContext } from '../../auth/context.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, conflict } from '../../lib/errors.ts';
import type { CatalogEntry } from '../insights/insights.schemas.ts';
import type { CreateDashboardInput, DashboardView } from '../dashboards/dashboards.schemas.ts';
import type { CreateWidgetInput } from '../dashboards/widgets.schemas.ts';
import { STARTER_DESCRIPTION, STARTER_NAME, starterWidgets } from './starter.ts';
import type { StarterRepository } from './starter.repository.ts';

/** What the starter needs of the dashboards domain (its service, wired in app.ts). */
export interface StarterPorts {
  dashboards: {
    create(auth: AuthContext, input: CreateDashboardInput): Promise<DashboardView>;
    delete(auth: AuthContext, id: string): Promise<void>;
    findForSystem(tenantId: string, id: string): Promise<(DashboardView & { widgets: unknown[] }) | undefined>;
  };
  widgets: { create(auth: AuthContext, dashboardId: string, input: CreateWidgetInput): Promise<unknown> };
  catalog(): readonly CatalogEntry[];
  /** Whether an insight is a time series of rolling measures. */
  rolling?(code: string): boolean;
}

/**
 * Who makes the demo tenant's starter when the demo data is seeded: the demo's first owner (the
 * user of the token a first start prints), so the owner may edit it like their own.
 */
export const DEMO_OWNER: AuthContext = {
  tenantId: 'demo',
  userId: 'owner',
  name: 'Demo Owner',
  email: 'owner@demo.example',
  role: 'owner',
};

/**
 * The "Start here" dashboard, made one way for the seed of the demo data and for people who ask
 * for it (POST /api/v1/dashboards/starter, the web app's button): docs/web.md "First run".
 */
export class StarterService {
  constructor(
    private readonly repo: StarterRepository,
    private readonly ports: StarterPorts,
    private readonly clock: Clock,
  ) {}

  /**
   * Asked for: the tenant's starter when it still exists (created false), else a new one, made by
   * the caller (owners and admins, like any dashboard).
   */
  async make(auth: AuthContext): Promise<{ dashboard: DashboardView; created: boolean }> {
    requireRole(auth, 'admin', 'create dashboards');
    const recorded = await this.repo.find(auth.tenantId);
    if (recorded?.dashboard_id) {
      const existing = await this.ports.dashboards.findForSystem(auth.tenantId, recorded.dashboard_id);
      if (existing) {
        const { widgets: _, ...view } = existing;
        return { dashboard: view, created: false };
      }
    }
    const dashboard = await this.build(auth);
    await this.repo.record(auth.tenantId, dashboard.id, this.clock.now());
    return { dashboard, created: true };
  }

  /**
   * At the seed of the demo data: the tenant's starter, unless one was ever made (a re-seed makes
   * no second copy, and one deleted stays deleted). Undefined when nothing was made.
   */
  async ensure(auth: AuthContext): Promise<DashboardView | undefined> {
    if (starterWidgets(this.ports.catalog(), (code) => this.ports.rolling?.(code) ?? false).length === 0) return undefined;
    if (!(await this.repo.claim(auth.tenantId, this.clock.now()))) return undefined;
    try {
      const dashboard = await this.build(auth);
      await this.repo.record(auth.tenantId, dashboard.id, this.clock.now());
      return dashboard;
    } catch (err) {
      await this.repo.release(auth.tenantId);
      throw err;
    }
  }

  /**
   * Not shared: owners and admins see every dashboard of the tenant, and sharing it with the
   * members is the owner's call, as for any dashboard.
   */
  private async build(auth: AuthContext): Promise<DashboardView> {
    const widgets = starterWidgets(this.ports.catalog(), (code) => this.ports.rolling?.(code) ?? false);
    if (widgets.length === 0) throw conflict('The model has no insights to make a starter dashboard from.');
    const made = await this.ports.dashboards.create(auth, { name: STARTER_NAME, description: STARTER_DESCRIPTION });
    try {
      for (const w of widgets) await this.ports.widgets.create(auth, made.id, { ...w, data_source: 'live_insight' });
    } catch (err) {
      // Half a starter is no starter: the dashboard goes with the widget that failed.
      await this.ports.dashboards.delete(auth, made.id).catch(() => undefined);
      // Deleted by someone else while it was being made: the request conflicts with that (409),
      // it did not ask for a missing resource (this path has no id to be missing).
      if (err instanceof AppError && err.code === 'NOT_FOUND') {
        throw conflict('The starter dashboard was deleted while it was being made; ask again.');
      }
      throw err;
    }
    const full = await this.ports.dashboards.findForSystem(auth.tenantId, made.id);
    if (!full) return made;
    const { widgets: _, ...view } = full;
    return view;
  }
}
