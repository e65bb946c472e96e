import type { FastifyInstance } from 'fastify';
import type { Company, CompanyDetail, CompanyList, Contact, ContactDetail, ContactList } from '../../../modules/crm/index.ts';
import { runAsMember } from '../../actions.ts';
import { emptyState, table } from '../../components/index.ts';
import { html, type Html } from '../../html.ts';
import { contactHref } from '../../links.ts';
import { moduleOpen } from '../../module-gate.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import { renderRichText } from '../../rich-text.ts';
import type { PagesDeps } from '../../session.ts';
import { requireSession } from '../../require-session.ts';

const SHOWN = 20;
const CRM = { label: 'CRM', href: '/crm' };

const companyHref = (id: string) => `/crm/companies/${id}`;
const stage = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

export function contactsTable(contacts: readonly Contact[], id: string): Html {
  return table(
    [
      { header: 'Name', cell: (c) => html`<a href="${contactHref(c.id)}">${c.name}</a>` },
      { header: 'Job title', cell: (c) => c.job_title ?? '—' },
      { header: 'Company', cell: (c) => (c.company ? html`<a href="${companyHref(c.company.id)}">${c.company.name}</a>` : '—') },
      { header: 'Stage', cell: (c) => stage(c.stage) },
    ],
    contacts,
    { id, caption: 'Contacts' },
  );
}

function companiesTable(companies: readonly Company[]): Html {
  return table(
    [
      { header: 'Name', cell: (c) => html`<a href="${companyHref(c.id)}">${c.name}</a>` },
      { header: 'Industry', cell: (c) => c.industry ?? '—' },
      { header: 'Stage', cell: (c) => stage(c.stage) },
    ],
    companies,
    { id: 'companies', caption: 'Companies' },
  );
}

/**
 * /crm: contacts and companies for members who may see the CRM (search_contacts and
 * search_companies, as the API answers them); a contact's and a company's page read one each.
 */
export function crmRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/crm', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'crm'))) return reply;
    const as = { request, session };
    const [contacts, companies] = await Promise.all([
      runAsMember<ContactList>(deps, as, 'search_contacts', { query: { limit: String(SHOWN) } }),
      runAsMember<CompanyList>(deps, as, 'search_companies', { query: { limit: String(SHOWN) } }),
    ]);
    if (!contacts.ok) return memberErrorPage(reply, deps, session, contacts.error.status, contacts.error.message);
    if (!companies.ok) return memberErrorPage(reply, deps, session, companies.error.status, companies.error.message);
    const body = html`<div class="card"><h1>CRM</h1><h2>Contacts</h2>${
      contacts.value.contacts.length
        ? contactsTable(contacts.value.contacts, 'contacts')
        : emptyState('contacts-none', 'No contacts you may see yet.')
    }<h2>Companies</h2>${companies.value.companies.length ? companiesTable(companies.value.companies) : emptyState('companies-none', 'No companies you may see yet.')}</div>`;
    return sendMemberPage(request, reply, deps, session, { title: 'CRM', body, section: 'crm', crumbs: [{ label: 'CRM' }] });
  });

  app.get('/crm/contacts/:id', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'crm'))) return reply;
    const read = await runAsMember<ContactDetail>(deps, { request, session }, 'get_contact', {
      params: request.params as Record<string, string>,
    });
    if (!read.ok) return memberErrorPage(reply, deps, session, read.error.status === 403 ? 403 : 404, read.error.message, [CRM]);
    const c = read.value;
    const body = html`<div class="card"><h1 id="contact-name">${c.name}</h1>
<dl class="facts"><dt>Job title</dt><dd>${c.job_title ?? '—'}</dd><dt>Company</dt><dd>${c.company ? html`<a href="${companyHref(c.company.id)}">${c.company.name}</a>` : '—'}</dd>
<dt>Stage</dt><dd>${stage(c.stage)}</dd><dt>Owner</dt><dd>${c.owner?.name ?? '—'}</dd>
<dt>Email</dt><dd>${c.emails.length ? c.emails.map((e, i) => html`${i ? ', ' : ''}${e.address}`) : '—'}</dd>
<dt>Phone</dt><dd>${c.phones.length ? c.phones.map((p, i) => html`${i ? ', ' : ''}${p.number}`) : '—'}</dd></dl>
<h2>Notes</h2>${renderRichText(c.notes)}</div>`;
    return sendMemberPage(request, reply, deps, session, {
      title: c.name,
      body,
      section: 'crm',
      crumbs: [CRM, { label: 'Contacts', href: '/crm#contacts' }, { label: c.name }],
    });
  });

  app.get('/crm/companies/:id', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'crm'))) return reply;
    const read = await runAsMember<CompanyDetail>(deps, { request, session }, 'get_company', {
      params: request.params as Record<string, string>,
    });
    if (!read.ok) return memberErrorPage(reply, deps, session, read.error.status === 403 ? 403 : 404, read.error.message, [CRM]);
    const c = read.value;
    const body = html`<div class="card"><h1 id="company-name">${c.name}</h1>
<dl class="facts"><dt>Industry</dt><dd>${c.industry ?? '—'}</dd><dt>Stage</dt><dd>${stage(c.stage)}</dd><dt>Domains</dt><dd>${c.domains.join(', ') || '—'}</dd></dl>
<h2>Description</h2>${renderRichText(c.description)}
<h2>Contacts</h2>${c.contacts.length ? contactsTable(c.contacts, 'company-contacts') : emptyState('company-contacts-none', 'No contacts.')}</div>`;
    return sendMemberPage(request, reply, deps, session, {
      title: c.name,
      body,
      section: 'crm',
      crumbs: [CRM, { label: 'Companies', href: '/crm#companies' }, { label: c.name }],
    });
  });
}
