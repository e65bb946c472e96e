import { defineOperation } from '../../core/operation.ts';
import { searchContacts, getContact } from './contacts-read.ts';
import { getCompany, searchCompanies, updateCompany } from './companies.ts';
import { addContactEmail, addContactPhone, createContact, updateContact } from './contacts.ts';
import { completeFollowUp, listFollowUps } from './follow-ups.ts';
import { listInteractions, logInteraction } from './interactions.ts';
import {
  AddEmailBody,
  AddPhoneBody,
  Company,
  CompanyDetail,
  CompanyList,
  CompanyParams,
  ContactDetail,
  ContactList,
  ContactParams,
  CreateContactBody,
  FollowUpList,
  Interaction,
  InteractionList,
  InteractionParams,
  ListInteractionsQuery,
  LogInteractionBody,
  SearchCompaniesQuery,
  SearchContactsQuery,
  UpdateCompanyBody,
  UpdateContactBody,
} from './schemas.ts';

// Spec 4.7. Reading needs See the CRM (kept by a read token); changing needs Edit the CRM for
// the company concerned. A record the member may not see is 404; a list the CRM is closed to, 403.
const SEE = 'Needs See the CRM; a member limited to some companies sees only those, their contacts and interactions.';
const EDIT = 'Needs Edit the CRM for the contact’s company (for a contact with no company: for the whole CRM).';

export const searchContactsOperation = defineOperation({
  name: 'search_contacts',
  tool: 'search_contacts',
  method: 'GET',
  path: '/contacts',
  module: 'crm',
  access: 'read',
  summary: 'Find contacts by words in the name, job title or an email address; newest first',
  description: `Lists contacts newest first, paged by \`limit\` (up to 100) and \`offset\`. \`q\` finds words and their beginnings in the name, job title or any email address (\`anna\`, \`acme.example\`). Filters: \`company\` (name or id), \`stage\` (\`lead\`, \`qualified\`, \`customer\`, \`former\`), \`owner\` (\`me\`, a name or an id); \`archived: true\` lists archived contacts instead. Use get_contact for addresses, phones and notes. ${SEE}`,
  query: SearchContactsQuery,
  response: ContactList,
  errors: ['forbidden', 'invalid'],
  handler: (ctx, input) => searchContacts(ctx, input),
});

export const getContactOperation = defineOperation({
  name: 'get_contact',
  tool: 'get_contact',
  method: 'GET',
  path: '/contacts/:id',
  module: 'crm',
  access: 'read',
  summary: 'Read one contact with its addresses, phones, notes and consent',
  description: `Reads a contact by id (from search_contacts): its email addresses and phones (the primary first), postal addresses, notes, source, whether it has an account, custom fields and the latest consent answer per purpose (a purpose not listed was never asked and counts as no). ${SEE}`,
  params: ContactParams,
  response: ContactDetail,
  errors: ['not_found'],
  handler: (ctx, input) => getContact(ctx, input.id),
});

export const createContactOperation = defineOperation({
  name: 'create_contact',
  tool: 'create_contact',
  method: 'POST',
  path: '/contacts',
  module: 'crm',
  access: 'write',
  summary: 'Create a contact; its email and phone become its primary ones',
  description: `Creates a contact. \`name\` (up to 255 characters) is required; \`company\` by name or id; \`stage\` defaults to \`lead\`; \`owner\` (\`me\`, a name or an id, someone who may see the CRM for that company) defaults to you, null for nobody; \`notes\` in Markdown. \`email\` and \`phone\` become the primary ones. An email address belongs to one contact in the workspace: one somebody has already is refused (search_contacts with \`q\` finds who). ${EDIT}`,
  body: CreateContactBody,
  response: ContactDetail,
  status: 201,
  errors: ['forbidden', 'invalid'],
  handler: (ctx, input) => createContact(ctx, input),
});

export const updateContactOperation = defineOperation({
  name: 'update_contact',
  tool: 'update_contact',
  method: 'PATCH',
  path: '/contacts/:id',
  module: 'crm',
  access: 'write',
  summary: 'Change a contact: name, job title, company, stage, owner, notes; fields left out stay',
  description: `Changes a contact; send only what changes. \`company\` or \`owner\` null clears it; \`stage\` moves it to \`lead\`, \`qualified\`, \`customer\` or \`former\` in any order. Moving a contact to another company needs Edit the CRM for both. Addresses and phones are added with add_contact_email and add_contact_phone. ${EDIT}`,
  params: ContactParams,
  body: UpdateContactBody,
  response: ContactDetail,
  errors: ['not_found', 'forbidden', 'invalid'],
  handler: (ctx, input) => updateContact(ctx, input.id, input),
});

export const addContactEmailOperation = defineOperation({
  name: 'add_contact_email',
  tool: 'add_contact_email',
  method: 'POST',
  path: '/contacts/:id/emails',
  module: 'crm',
  access: 'write',
  summary: 'Add an email address to a contact; `primary: true` makes it the primary one',
  description: `Adds an address (label \`work\` by default, \`home\` or \`other\`). \`primary: true\` moves the primary flag to it; a contact’s first address is always primary. An address another contact has is refused (422). Answers the contact. ${EDIT}`,
  params: ContactParams,
  body: AddEmailBody,
  response: ContactDetail,
  status: 201,
  errors: ['not_found', 'forbidden', 'invalid'],
  handler: (ctx, input) => addContactEmail(ctx, input.id, input),
});

export const addContactPhoneOperation = defineOperation({
  name: 'add_contact_phone',
  tool: 'add_contact_phone',
  method: 'POST',
  path: '/contacts/:id/phones',
  module: 'crm',
  access: 'write',
  summary: 'Add a phone number to a contact, kept as written; `primary: true` makes it the primary one',
  description: `Adds a number exactly as written (label \`work\` by default, \`home\`, \`mobile\` or \`other\`). \`primary: true\` moves the primary flag to it; a contact’s first number is always primary. Answers the contact. ${EDIT}`,
  params: ContactParams,
  body: AddPhoneBody,
  response: ContactDetail,
  status: 201,
  errors: ['not_found', 'forbidden', 'invalid'],
  handler: (ctx, input) => addContactPhone(ctx, input.id, input),
});

export const searchCompaniesOperation = defineOperation({
  name: 'search_companies',
  tool: 'search_companies',
  method: 'GET',
  path: '/companies',
  module: 'crm',
  access: 'read',
  summary: 'Find companies by words in the name, industry or a domain; by name',
  description: `Lists companies by name, paged by \`limit\` (up to 100) and \`offset\`. \`q\` finds words and their beginnings in the name, industry or a domain (\`acme\`, \`acme.example\`). Filters: \`stage\` (\`lead\`, \`prospect\`, \`customer\`, \`former\`), \`owner\` (\`me\`, a name or an id), \`customers: true\` for customers only; \`archived: true\` lists archived companies instead. ${SEE}`,
  query: SearchCompaniesQuery,
  response: CompanyList,
  errors: ['forbidden', 'invalid'],
  handler: (ctx, input) => searchCompanies(ctx, input),
});

export const getCompanyOperation = defineOperation({
  name: 'get_company',
  tool: 'get_company',
  method: 'GET',
  path: '/companies/:id',
  module: 'crm',
  access: 'read',
  summary: 'Read one company (by id or name) with its contacts and its open and closed deals',
  description: `Reads a company named by its id or its name (case-insensitive): its description, its contacts that are not archived, and its deals (tickets of a sales project) split into open and closed, each with status, assignee, value in its own currency, expected close and probability. Only deals you may see are listed; read or change a deal with get_ticket and update_ticket. ${SEE}`,
  params: CompanyParams,
  response: CompanyDetail,
  errors: ['not_found'],
  handler: (ctx, input) => getCompany(ctx, input.id),
});

export const updateCompanyOperation = defineOperation({
  name: 'update_company',
  tool: 'update_company',
  method: 'PATCH',
  path: '/companies/:id',
  module: 'crm',
  access: 'write',
  summary: 'Change a company: name, website, industry, size, stage, owner, description, domains',
  description: `Changes a company named by id or name; send only what changes. \`name\` is unique in the workspace (up to 255 characters); \`size\` is \`1-10\`, \`11-50\`, \`51-200\`, \`201-1000\`, \`1000+\` or null; \`stage\` any of \`lead\`, \`prospect\`, \`customer\`, \`former\`; \`owner\` someone who may see the CRM for the company, or null; \`domains\` replaces the whole list. Companies are created and archived in the browser, and \`customer\` and billing details are an administrator’s: they cannot be changed here. Answers the company. Needs Edit the CRM for the company.`,
  params: CompanyParams,
  body: UpdateCompanyBody,
  response: Company,
  errors: ['not_found', 'forbidden', 'invalid'],
  handler: (ctx, input) => updateCompany(ctx, input.id, input),
});

export const listInteractionsOperation = defineOperation({
  name: 'list_interactions',
  tool: 'list_interactions',
  method: 'GET',
  path: '/interactions',
  module: 'crm',
  access: 'read',
  summary: 'List the interactions with a contact, a company or about a ticket; latest first',
  description: `Lists notes, calls, meetings, emails and tasks, latest first, paged by \`limit\` (up to 100) and \`offset\`. Name exactly one of \`contact\` (id), \`company\` (id or name) or \`ticket\` (key, such as a deal \`SALES-12\`); \`kind\` narrows it. Interactions about a ticket are listed only if you may see the ticket. ${SEE}`,
  query: ListInteractionsQuery,
  response: InteractionList,
  errors: ['not_found', 'forbidden', 'invalid'],
  handler: (ctx, input) => listInteractions(ctx, input),
});

export const logInteractionOperation = defineOperation({
  name: 'log_interaction',
  tool: 'log_interaction',
  method: 'POST',
  path: '/interactions',
  module: 'crm',
  access: 'write',
  summary: 'Log a note, call, meeting or task (a follow-up) with a contact, a company or about a ticket',
  description: `Records an interaction. \`kind\` is \`note\`, \`call\`, \`meeting\` or \`task\` (emails arrive by mail, never typed in); \`subject\` up to 255 characters; \`body\` in Markdown. Name at least one of \`contact\` (id), \`company\` (name or id) and \`ticket\` (key). With a company or a deal, \`contact\` must be one of that company’s contacts or one of the deal’s people you may edit; a contact’s company is linked automatically. \`occurred_at\` is ISO 8601 with an offset, or a local \`YYYY-MM-DDTHH:MM\` with \`timezone\` (IANA, such as Europe/Berlin); now when left out; a call or meeting ahead of now is planned. \`duration\` like \`30m\` or \`1h 15m\`. A task takes \`due_at\` (written as occurred_at) and \`assignee\` (\`me\` when left out), who is reminded when it comes due; list_follow_ups shows open ones and complete_follow_up closes one. Needs Edit the CRM for the company concerned.`,
  body: LogInteractionBody,
  response: Interaction,
  status: 201,
  errors: ['not_found', 'forbidden', 'invalid', 'invalid_duration'],
  handler: (ctx, input) => logInteraction(ctx, input),
});

export const completeFollowUpOperation = defineOperation({
  name: 'complete_follow_up',
  tool: 'complete_follow_up',
  method: 'POST',
  path: '/interactions/:id/complete',
  module: 'crm',
  access: 'write',
  idempotent: true,
  summary: 'Complete a follow-up (an interaction of kind task): done_at becomes now',
  description: 'Marks an open follow-up done (done_at set to now) and drops its reminder; one already done is answered unchanged. Only tasks are completed. May be done by its assignee, its author, or whoever manages the CRM (crm:manage) for its company.',
  params: InteractionParams,
  response: Interaction,
  errors: ['not_found', 'forbidden', 'invalid'],
  handler: (ctx, input) => completeFollowUp(ctx, input.id),
});

export const listFollowUpsOperation = defineOperation({
  name: 'list_follow_ups',
  tool: 'list_follow_ups',
  method: 'GET',
  path: '/follow-ups',
  module: 'crm',
  access: 'read',
  summary: 'Your open follow-ups: soonest due first, those with no due moment last',
  description: 'Lists the open follow-ups (tasks not done) assigned to you, soonest due first and those with no due moment last; complete one with complete_follow_up. Empty if the CRM is closed to you.',
  response: FollowUpList,
  handler: (ctx) => listFollowUps(ctx),
});

export const crmOperations = [
  searchContactsOperation,
  getContactOperation,
  createContactOperation,
  updateContactOperation,
  addContactEmailOperation,
  addContactPhoneOperation,
  searchCompaniesOperation,
  getCompanyOperation,
  updateCompanyOperation,
  listInteractionsOperation,
  logInteractionOperation,
  completeFollowUpOperation,
  listFollowUpsOperation,
];
