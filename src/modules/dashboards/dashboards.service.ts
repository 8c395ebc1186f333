import { isManager, requireRole, type AuthContext } from '../../auth/context.ts';
import { mayManage } from '../../auth/policy.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, invalidField, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Page } from '../../lib/paging.ts';
import type { WidgetsRepository } from './widgets.repository.ts';
import { StoredRowsAccess } from './stored-rows.ts';
import { toWidgetView } from './widget-view.ts';
import type { WidgetView } from './widgets.schemas.ts';
import type { DashboardChanges, DashboardRecord, DashboardsRepository } from './dashboards.repository.ts';
import type { CreateDashboardInput, DashboardView, GlobalFilterPreset, PatchDashboardInput, PresetInput } from './dashboards.schemas.ts';

export type DashboardDetail = DashboardView & { widgets: WidgetView[] };

export function toDashboardView(d: DashboardRecord): DashboardView {
  return {
    id: d.id,
    tenant_id: d.tenant_id,
    name: d.name,
    description: d.description,
    created_by: d.created_by,
    created_by_name: d.created_by_name,
    is_shared: d.is_shared,
    shared_with_emails: d.shared_with_emails,
    widget_ids: d.widget_ids,
    global_filter_presets: d.global_filter_presets,
    active_preset_id: d.active_preset_id,
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
  };
}

/** docs/product.md §4: managers see the whole tenant; a member what they created or what is shared with them. */
export function canView(auth: AuthContext, d: DashboardRecord): boolean {
  if (mayManage(auth, d) || d.is_shared) return true;
  return auth.email !== null && d.shared_with_emails.includes(auth.email.toLowerCase());
}

/** Patching, deleting, writing widgets and subscriptions: managers, or the dashboard's creator. */
export function canEdit(auth: AuthContext, d: DashboardRecord): boolean {
  return mayManage(auth, d);
}

function normalizeEmails(emails: string[] | null | undefined): string[] {
  return [...new Set((emails ?? []).map((e) => e.trim().toLowerCase()))];
}

/** Checks a preset's filters against the model; throws a 400 naming `${where}/<name>`. */
export type PresetFilterCheck = (filters: Record<string, unknown>, where: string) => void;

function normalizePresets(input: PresetInput[], check: PresetFilterCheck): GlobalFilterPreset[] {
  const seen = new Set<string>();
  return input.map((p, i) => {
    const id = p.id ?? newId();
    if (seen.has(id)) throw invalidField(`/body/global_filter_presets/${i}/id`, `duplicates the id "${id}" of another preset`);
    seen.add(id);
    const filters = p.filters ?? {};
    check(filters, `/body/global_filter_presets/${i}/filters`);
    if (filters.date_from && filters.date_to && filters.date_from > filters.date_to) {
      throw invalidField(`/body/global_filter_presets/${i}/filters/date_from`, 'must not be after date_to');
    }
    return { id, name: p.name, filters };
  });
}

function checkActivePreset(activeId: string | null, presets: GlobalFilterPreset[]): void {
  if (activeId !== null && !presets.some((p) => p.id === activeId)) {
    throw invalidField('/body/active_preset_id', `names no preset of this dashboard ("${activeId}")`);
  }
}

export class DashboardsService {
  constructor(
    private readonly repo: DashboardsRepository,
    private readonly widgets: WidgetsRepository,
    private readonly clock: Clock,
    /** The model's check of a preset's filter dimensions and values (widget-source.ts checkPresetFilters). */
    private readonly checkPresetFilters: PresetFilterCheck = () => {},
    /** The model's row-level access over stored rows (a snapshot widget's). */
    private readonly storedRows = new StoredRowsAccess(),
  ) {}

  async create(auth: AuthContext, input: CreateDashboardInput): Promise<DashboardView> {
    requireRole(auth, 'admin', 'create dashboards');
    const presets = normalizePresets(input.global_filter_presets ?? [], this.checkPresetFilters);
    const active = input.active_preset_id ?? null;
    checkActivePreset(active, presets);
    const now = this.clock.now();
    const record: DashboardRecord = {
      id: newId(),
      tenant_id: auth.tenantId,
      name: input.name,
      description: input.description ?? null,
      created_by: auth.userId,
      created_by_name: auth.name,
      is_shared: input.is_shared ?? false,
      shared_with_emails: normalizeEmails(input.shared_with_emails),
      widget_ids: [],
      global_filter_presets: presets,
      active_preset_id: active,
      created_at: now,
      updated_at: now,
    };
    await this.repo.insert(record);
    return toDashboardView(record);
  }

  async list(auth: AuthContext, page: Page): Promise<DashboardView[]> {
    const who = isManager(auth)
      ? ({ all: true } as const)
      : { all: false as const, userId: auth.userId, email: auth.email?.toLowerCase() ?? null };
    return (await this.repo.list(auth.tenantId, who, page)).map(toDashboardView);
  }

  /** The dashboard if the caller may view it; otherwise 404, whether it is foreign, hidden or absent. */
  async getViewable(auth: AuthContext, id: string): Promise<DashboardRecord> {
    const d = await this.repo.find(auth.tenantId, id);
    if (!d || !canView(auth, d)) throw notFound('Dashboard');
    return d;
  }

  /** The dashboard if the caller may change it: 404 when they may not even view it, 403 when only view. */
  async getEditable(auth: AuthContext, id: string, action = 'change this dashboard'): Promise<DashboardRecord> {
    const d = await this.getViewable(auth, id);
    if (!canEdit(auth, d)) {
      throw new AppError('FORBIDDEN', `Only an owner, an admin or the dashboard's creator may ${action}.`);
    }
    return d;
  }

  async get(auth: AuthContext, id: string): Promise<DashboardDetail> {
    const d = await this.getViewable(auth, id);
    return this.withWidgets(d, auth);
  }

  async update(auth: AuthContext, id: string, input: PatchDashboardInput): Promise<DashboardView> {
    await this.getEditable(auth, id);
    const presets =
      input.global_filter_presets === undefined ? undefined : normalizePresets(input.global_filter_presets, this.checkPresetFilters);
    const updated = await this.repo.update(auth.tenantId, id, (current) => {
      const changes: DashboardChanges = { updated_at: this.clock.now() };
      if (input.name !== undefined) changes.name = input.name;
      if (input.description !== undefined) changes.description = input.description;
      if (input.is_shared !== undefined) changes.is_shared = input.is_shared;
      if (input.shared_with_emails !== undefined) changes.shared_with_emails = normalizeEmails(input.shared_with_emails);
      if (presets !== undefined) changes.global_filter_presets = presets;
      const nextPresets = presets ?? current.global_filter_presets;
      if (input.active_preset_id !== undefined) {
        checkActivePreset(input.active_preset_id, nextPresets);
        changes.active_preset_id = input.active_preset_id;
      } else if (current.active_preset_id !== null && !nextPresets.some((p) => p.id === current.active_preset_id)) {
        // The active preset was removed by this PATCH: nothing is active any more.
        changes.active_preset_id = null;
      }
      if (input.widget_ids !== undefined) {
        const same =
          input.widget_ids.length === current.widget_ids.length &&
          new Set(input.widget_ids).size === input.widget_ids.length &&
          input.widget_ids.every((w) => current.widget_ids.includes(w));
        if (!same) {
          throw invalidField('/body/widget_ids', "must list exactly the ids of the dashboard's widgets, each once, in the new order");
        }
        changes.widget_ids = input.widget_ids;
      }
      return changes;
    });
    if (!updated) throw notFound('Dashboard');
    return toDashboardView(updated);
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    await this.getEditable(auth, id, 'delete this dashboard');
    if (!(await this.repo.delete(auth.tenantId, id))) throw notFound('Dashboard');
  }

  /** For workers and other domains acting without an HTTP caller (scheduled reports). */
  async findForSystem(tenantId: string, id: string): Promise<DashboardDetail | undefined> {
    const d = await this.repo.find(tenantId, id);
    return d ? this.withWidgets(d, undefined) : undefined;
  }

  async getForSystem(tenantId: string, id: string): Promise<DashboardDetail> {
    const d = await this.findForSystem(tenantId, id);
    if (!d) throw notFound('Dashboard');
    return d;
  }

  /** With the stored rows `viewer` may see; a system reader (undefined) gets them as stored, to run as its subscriber. */
  private async withWidgets(d: DashboardRecord, viewer: AuthContext | undefined): Promise<DashboardDetail> {
    const widgets = await this.widgets.listForDashboard(d.tenant_id, d.id);
    return {
      ...toDashboardView(d),
      widgets: widgets.map((w) => toWidgetView(w, viewer ? this.storedRows.snapshotFor(viewer, w) : w.snapshot_data)),
    };
  }
}
