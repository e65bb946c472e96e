import { presentRichText } from '../../core/rich-text.ts';
import type { Person, Reference, RichText } from '../../core/shapes.ts';
import { toTimestamp } from '../../core/time.ts';
import type { CompanyRow } from './companies-repo.ts';
import type { ContactDetailRow, ContactRow } from './contacts-repo.ts';
import type { CompanyDealRow } from './deals-repo.ts';
import type { InteractionRow } from './interactions-repo.ts';
import type { Company, Contact, ContactDetail, DealSummary, Interaction } from './schemas.ts';
import type { ConsentAnswer } from './tables.ts';

/** The pages of the service that show CRM records (`/crm/...`). */
export function crmUrl(publicUrl: string, kind: 'contacts' | 'companies' | 'interactions', id: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/crm/${kind}/${id}`;
}

/** The path of a CRM record from the service's root, as a reminder's notification links it. */
export const crmPath = (kind: 'contacts' | 'companies' | 'interactions', id: string) => `/crm/${kind}/${id}`;

const ref = (id: string | null, name: string | null): Reference | null => (id === null || name === null ? null : { id, name });
const person = (id: string | null, name: string | null): Person | null => ref(id, name);

export function presentContact(row: ContactRow, publicUrl: string): Contact {
  return {
    id: row.id,
    name: row.name,
    job_title: row.job_title,
    stage: row.stage,
    company: ref(row.company_id, row.company_name),
    owner: person(row.owner_id, row.owner_name),
    email: row.email,
    archived: row.archived,
    url: crmUrl(publicUrl, 'contacts', row.id),
  };
}

/** The latest answer per purpose (spec 2.9), in the order purposes were first asked. */
function latestConsent(answers: readonly ConsentAnswer[]): ContactDetail['consent'] {
  const latest = new Map<string, ConsentAnswer>();
  for (const answer of answers) {
    const before = latest.get(answer.purpose);
    if (!before || Date.parse(answer.recorded_at) >= Date.parse(before.recorded_at)) latest.set(answer.purpose, answer);
  }
  return [...latest.values()].map((a) => ({
    purpose: a.purpose,
    granted: a.granted,
    recorded_at: toTimestamp(new Date(a.recorded_at).toISOString()),
  }));
}

export function presentContactDetail(row: ContactDetailRow, publicUrl: string): ContactDetail {
  return {
    ...presentContact(row, publicUrl),
    emails: row.emails,
    phones: row.phones,
    postal_addresses: row.postal_addresses,
    notes: presentRichText(row.notes_format, row.notes_text),
    source: row.source,
    has_account: row.has_account,
    created_at: toTimestamp(row.created_at),
    fields: row.fields,
    consent: latestConsent(row.consent),
  };
}

export function presentCompany(row: CompanyRow, publicUrl: string): Company {
  return {
    id: row.id,
    name: row.name,
    domains: row.domains,
    stage: row.stage,
    industry: row.industry,
    size: row.size,
    website: row.website,
    owner: person(row.owner_id, row.owner_name),
    customer: row.customer,
    archived: row.archived,
    url: crmUrl(publicUrl, 'companies', row.id),
  };
}

export function presentDealSummary(row: CompanyDealRow): DealSummary {
  const fields = row.fields ?? {};
  return {
    key: row.key,
    summary: row.summary,
    status: row.status_name === null ? null : { name: row.status_name, category: row.status_category },
    assignee: person(row.assignee_id, row.assignee_name),
    value: fields.deal_value ?? null,
    currency: fields.deal_currency ?? null,
    expected_close: fields.expected_close ?? null,
    probability: fields.probability ?? null,
  };
}

export function presentInteraction(row: InteractionRow, publicUrl: string): Interaction {
  return {
    id: row.id,
    kind: row.kind,
    subject: row.subject,
    // spec 2.9: body is RichText, never null; an interaction logged without one has an empty text
    body: (presentRichText(row.body_format, row.body_text) ?? { format: 'markdown', text: '' }) as RichText,
    occurred_at: toTimestamp(row.occurred_at),
    duration_seconds: row.duration_seconds,
    author: person(row.author_id, row.author_name),
    contact: ref(row.contact_id, row.contact_name),
    company: ref(row.company_id, row.company_name),
    ticket: row.ticket_key,
    due_at: toTimestamp(row.due_at),
    assignee: person(row.assignee_id, row.assignee_name),
    done_at: toTimestamp(row.done_at),
    email: row.email,
    url: crmUrl(publicUrl, 'interactions', row.id),
  };
}
