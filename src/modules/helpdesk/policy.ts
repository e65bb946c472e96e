import { sql, type RawBuilder } from 'kysely';
import { forbidden } from '../../core/errors.ts';
import type { RecordVisibility } from '../../core/visibility.ts';
import { memberIsAdminSql, projectsHeldSql, type Ability, type MemberSql } from '../../policy/ability.ts';
import type { Permission } from '../../policy/permissions.ts';

/**
 * Who may change helpdesk forms (spec 4.4, 5.6): helpdesk:forms for every change; helpdesk:publish
 * as well for making a form open to anyone, for changing a form while it is open, and for moving
 * an open form in the portal order. Taking a form off the public and retiring one need
 * helpdesk:forms alone.
 */

export type FormSubmission = 'authenticated' | 'open';

export type FormChange =
  | { kind: 'create'; submission: FormSubmission }
  /** `changed`: the fields whose stored value the request changes. */
  | { kind: 'update'; before: FormSubmission; after: FormSubmission; changed: readonly string[] }
  | { kind: 'retire' }
  | { kind: 'order'; movesOpenForm: boolean };

function takesOffThePublic(change: Extract<FormChange, { kind: 'update' }>): boolean {
  return change.before === 'open' && change.after === 'authenticated' && change.changed.every((field) => field === 'submission');
}

/** The permissions a change needs, as a table of rules rather than checks spread in the service. */
export function permissionsForFormChange(change: FormChange): Permission[] {
  switch (change.kind) {
    case 'create':
      return change.submission === 'open' ? ['helpdesk:forms', 'helpdesk:publish'] : ['helpdesk:forms'];
    case 'update': {
      const touchesOpen = change.changed.length > 0 && (change.before === 'open' || change.after === 'open');
      return touchesOpen && !takesOffThePublic(change) ? ['helpdesk:forms', 'helpdesk:publish'] : ['helpdesk:forms'];
    }
    case 'retire':
      return ['helpdesk:forms'];
    case 'order':
      return change.movesOpenForm ? ['helpdesk:forms', 'helpdesk:publish'] : ['helpdesk:forms'];
  }
}

const WHY: Record<string, string> = {
  'helpdesk:forms': 'needs helpdesk:forms',
  'helpdesk:publish': 'a form open to anyone also needs helpdesk:publish',
};

/** Refuses with 403 `forbidden`, naming the permission missing, unless the request holds every one the change needs. */
export async function requireFormChange(
  ability: Ability,
  project: { id: string; key: string },
  change: FormChange,
  what: string,
): Promise<void> {
  for (const permission of permissionsForFormChange(change)) {
    if (!(await ability.can(permission, project.id))) {
      throw forbidden(`You may not ${what} in project ${project.key} (${WHY[permission]})`);
    }
  }
}

/** What RequestTypeList reports: can_manage and can_publish for this request's token. */
export async function formAbilities(ability: Ability, projectId: string): Promise<{ canManage: boolean; canPublish: boolean }> {
  const held = await ability.permissions(projectId);
  return { canManage: held.has('helpdesk:forms'), canPublish: held.has('helpdesk:publish') };
}

/** SQL: the project under `project` is one whose request types the member may read (project:view, spec 5.6). */
const formsReadableSql = (member: MemberSql, project: RawBuilder<string> | ReturnType<typeof sql.ref>) =>
  sql<boolean>`(${memberIsAdminSql(member)} or ${project} in (${projectsHeldSql(member, 'project:view')}))`;

/**
 * Who may see what the workspace audit log records of request types, for whoever it is shown to
 * (the page of what a member's agents did): a form (`request_type`) and a project's order of forms
 * (`request_types`, by the project's id) are read by whoever may view the project.
 */
export const helpdeskVisibility: Record<'request_type' | 'request_types', RecordVisibility> = {
  request_type: (member, record) =>
    sql<boolean>`exists (select 1 from request_types vis_rt
      where vis_rt.id = ${record} and ${formsReadableSql(member, sql.ref('vis_rt.project_id'))})`,
  request_types: (member, record) => formsReadableSql(member, sql<string>`${record}::uuid`),
};
