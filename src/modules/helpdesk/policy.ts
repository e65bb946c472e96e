import { forbidden } from '../../core/errors.ts';
import type { Ability } from '../../policy/ability.ts';
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
export async function requireFormChange(ability: Ability, project: { id: string; key: string }, change: FormChange, what: string): Promise<void> {
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
