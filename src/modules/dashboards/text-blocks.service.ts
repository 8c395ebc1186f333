// Markdown text blocks of a dashboard: anyone who may view the dashboard reads them; its editors
// (owners, admins, its creator: as for widgets) write them. The markdown is stored as written and
// rendered safely by the client (web/src/components/TextBlock.tsx: no raw HTML, safe links only).
import type { AuthContext } from '../../auth/context.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { DashboardsService } from './dashboards.service.ts';
import type { TextBlockChanges, TextBlockRecord, TextBlocksRepository } from './text-blocks.repository.ts';
import type { CreateTextBlockInput, PatchTextBlockInput, TextBlockView } from './text-blocks.schemas.ts';

export function toTextBlockView(b: TextBlockRecord): TextBlockView {
  return {
    id: b.id,
    dashboard_id: b.dashboard_id,
    body: b.body,
    display_size: b.display_size,
    position: b.position,
    created_at: b.created_at.toISOString(),
    updated_at: b.updated_at.toISOString(),
  };
}

export class TextBlocksService {
  constructor(
    private readonly repo: TextBlocksRepository,
    private readonly dashboards: DashboardsService,
    private readonly clock: Clock,
  ) {}

  async list(auth: AuthContext, dashboardId: string): Promise<TextBlockView[]> {
    await this.dashboards.getViewable(auth, dashboardId);
    return (await this.repo.list(auth.tenantId, dashboardId)).map(toTextBlockView);
  }

  async create(auth: AuthContext, dashboardId: string, input: CreateTextBlockInput): Promise<TextBlockView> {
    const dashboard = await this.dashboards.getEditable(auth, dashboardId, 'add text to this dashboard');
    const now = this.clock.now();
    const record: TextBlockRecord = {
      id: newId(),
      tenant_id: auth.tenantId,
      dashboard_id: dashboardId,
      body: input.body,
      display_size: input.display_size ?? 'full',
      // Left out: after the last widget.
      position: input.position ?? dashboard.widget_ids.length,
      created_at: now,
      updated_at: now,
    };
    await this.repo.insert(record);
    return toTextBlockView(record);
  }

  async update(auth: AuthContext, dashboardId: string, id: string, input: PatchTextBlockInput): Promise<TextBlockView> {
    await this.dashboards.getEditable(auth, dashboardId, 'change text of this dashboard');
    const changes: TextBlockChanges = { updated_at: this.clock.now() };
    if (input.body !== undefined) changes.body = input.body;
    if (input.display_size !== undefined) changes.display_size = input.display_size;
    if (input.position !== undefined) changes.position = input.position;
    const updated = await this.repo.update(auth.tenantId, dashboardId, id, changes);
    if (!updated) throw notFound('Text block');
    return toTextBlockView(updated);
  }

  async delete(auth: AuthContext, dashboardId: string, id: string): Promise<void> {
    await this.dashboards.getEditable(auth, dashboardId, 'remove text of this dashboard');
    if (!(await this.repo.delete(auth.tenantId, dashboardId, id))) throw notFound('Text block');
  }
}
