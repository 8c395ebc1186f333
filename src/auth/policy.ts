// Who may act on a tenant's resource, decided in one place: owners and admins manage the whole
// tenant; a member what they created. Repositories keep tenant scoping in SQL; this rule decides,
// within the tenant, which rows a caller may see and change.
import { isManager, type AuthContext } from './context.ts';

/** True when the caller may read and change a resource created by `created_by`. */
export function mayManage(auth: AuthContext, resource: { created_by: string }): boolean {
  return isManager(auth) || resource.created_by === auth.userId;
}

/**
 * The creator a listing is limited to: undefined for managers (the whole tenant), the caller's own
 * id for members. Repositories apply it as `created_by = $n` next to the tenant filter.
 */
export function ownerScope(auth: AuthContext): string | undefined {
  return isManager(auth) ? undefined : auth.userId;
}
