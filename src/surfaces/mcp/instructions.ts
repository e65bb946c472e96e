import type { Kysely } from 'kysely';
import type { Principal } from '../../core/execute.ts';
import type { WorkspaceSettings } from '../../core/settings.ts';
import { crmOpenTo } from '../../modules/crm/index.ts';
import type { DB } from '../../storage/schema.ts';
import type { ToolEntry } from './tools.ts';

/**
 * Whether the workspace has the code-hosting integration switched on (spec 4.8 item 8). The
 * integration does not exist yet, so neither does its setting: this answers false until it lands.
 */
export function codeHostingIntegrationEnabled(_settings: WorkspaceSettings): boolean {
  return false;
}

/** Whether the integration acts on `#comment` / `#<transition>` commit commands; false until it exists. */
export function commitCommandsEnabled(_settings: WorkspaceSettings): boolean {
  return false;
}

const list = (entries: ToolEntry[]) => entries.map((entry) => `\`${entry.name}\``).join(', ');

export function codeHostingParagraph(access: 'read' | 'write', commitCommands: boolean): string {
  const lines = [
    '## Code hosting',
    "When you work on a ticket in code, put the ticket's key (such as `ATR-12`) in the branch name, in every commit message and in the pull request title, so the work shows on the ticket.",
  ];
  if (access === 'write' && commitCommands) {
    lines.push(
      "A commit message may also act on the ticket: `ATR-12 #comment <text>` adds a comment, and `ATR-12 #<transition>` (for example `#start` or `#done`) moves it. These commands run as the commit's author and carry only the author's name.",
    );
  }
  return lines.join('\n');
}

/** Short Markdown for the model in the initialize answer (spec 4.8 item 8). */
export async function buildInstructions(db: Kysely<DB>, principal: Principal, offered: ToolEntry[]): Promise<string> {
  const write = principal.agent.access === 'write';
  const sections = [
    `# Atrium: ${principal.settings.name}`,
    write
      ? `You act as **${principal.actor.name}** through "${principal.agent.name}" with read and change access: you see and may do what that member may, and nothing more.`
      : `You act as **${principal.actor.name}** through "${principal.agent.name}" with read-only access: you see what that member sees and change nothing.`,
    '',
    '## Start here',
    '1. `whoami`: who you act for and with what access.',
    '2. `list_projects`: the projects you can see, by key.',
    "3. `describe_project`: a project's ticket types, priorities, resolutions, components, labels and assignable people. Use those exact names.",
    '',
    '## Names',
    '- A project is named by its key, such as `ATR`; a ticket by `<PROJECT KEY>-<number>`, such as `ATR-12`. Keys never change.',
    '- Everything else is named by its name, matched ignoring case: ticket types, priorities, resolutions, components, transitions, sprints. A board is named by its number; a label is lowercased with hyphens for spaces; a person is `me`, a display name or an id. A name that matches nothing is refused with up to 25 names that would have matched.',
    '- Timestamps are ISO 8601 in UTC; dates are `YYYY-MM-DD`.',
  ];
  if (!write) sections.push('', 'This connection can only read: tools that change things are not offered.');

  const crmTools = offered.filter((entry) => entry.op.module === 'crm');
  // "See the CRM" (spec 4.7, 4.8): CRM roles are held in the CRM (the whole of it or some companies), not in projects
  if (crmTools.length && (await crmOpenTo(db, { memberId: principal.actor.memberId, isAdmin: principal.actor.isAdmin }))) {
    const reading = crmTools.filter((entry) => entry.op.access === 'read');
    const writing = crmTools.filter((entry) => entry.op.access === 'write');
    sections.push('', '## CRM', `Contacts, companies and interactions: ${list(reading)}.`);
    if (writing.length) sections.push(`To record or change them: ${list(writing)}.`);
    if (crmTools.some((entry) => entry.op.name === 'get_company')) {
      sections.push(
        'Deals are tickets of a `sales` project: find, read and change them with the ticket tools (a deal’s company is `company` on create and update), a board card move moves one along the pipeline; losing one is the transition Lost with `fields: {lost_reason: …}`.',
      );
    }
  }

  if (offered.some((entry) => entry.op.name === 'list_request_types')) {
    sections.push(
      '',
      '## Helpdesk',
      "A helpdesk project takes requests through forms (request types), named by key or name: `list_request_types` shows them in portal order. `create_ticket` with `request_type` raises a request through a form; left out, `type` is the form's ticket type.",
    );
  }

  if (offered.some((entry) => entry.op.name === 'list_activities')) {
    const { timezone } = await db
      .selectFrom('members')
      .select('timezone')
      .where('id', '=', principal.actor.memberId)
      .executeTakeFirstOrThrow();
    sections.push(
      '',
      '## Time',
      `Local times (\`2026-03-29T09:00\`) and days in the time tools are read in your member's time zone, ${timezone}, unless you give \`timezone\`; a time with an offset stands alone. \`create_activity\` without end or duration starts a timer (and stops the one running); \`stop_activity\` ends it.`,
    );
  }

  if (codeHostingIntegrationEnabled(principal.settings)) {
    sections.push('', codeHostingParagraph(principal.agent.access, commitCommandsEnabled(principal.settings)));
  }
  return sections.join('\n');
}
