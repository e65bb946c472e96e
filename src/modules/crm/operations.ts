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
const SEE = 'Needs See the CRM; a member limited to some companies sees only theirs.';
const EDIT = "Needs Edit the CRM for the contact's company (the whole CRM when it has none).";

export const searchContactsOperation = defineOperation({
  name: 'search_contacts',
  tool: 'search_contacts',
  method: 'GET',
  path: '/contacts',
  module: 'crm',
  access: 'read',
  summary: 'Search contacts',
  description: `Contacts newest first, paged by \`limit\` and \`offset\`; \`q\` finds words and their beginnings in name, job title or any email address. get_contact gives addresses, phones and notes. ${SEE}`,
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
  summary: 'Read a contact',
  description: `A contact by id: email addresses and phones (primary first), postal addresses, notes, source, account, custom fields and the latest consent per purpose (one not listed counts as no). ${SEE}`,
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
  summary: 'Create a contact',
  description: `Creates a contact; \`email\` and \`phone\` become its primary ones. \`owner\` defaults to you (null: nobody) and must see the CRM for the company. An address another contact has is refused (search_contacts finds who). ${EDIT}`,
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
  summary: 'Change a contact',
  description: `Changes a contact; send only what changes (null clears \`company\` or \`owner\`; stages move in any order). Moving it to another company needs Edit the CRM for both. Add addresses with add_contact_email and add_contact_phone. ${EDIT}`,
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
  summary: 'Add an email address to a contact',
  description: `Adds an address; \`primary: true\` makes it the primary one (a first address always is). One another contact has is refused (422). Answers the contact. ${EDIT}`,
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
  summary: 'Add a phone number to a contact',
  description: `Adds a number as written; \`primary: true\` makes it the primary one (a first number always is). Answers the contact. ${EDIT}`,
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
  summary: 'Search companies',
  description: `Companies by name, paged by \`limit\` and \`offset\`; \`q\` finds words and their beginnings in name, industry or a domain. ${SEE}`,
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
  summary: 'Read a company',
  description: `A company by id or name (case-insensitive): description, contacts not archived, and the deals (sales tickets) you may see, open and closed, with status, assignee, value, expected close and probability; read or change deals with the ticket tools. ${SEE}`,
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
  summary: 'Change a company',
  description:
    'Changes a company named by id or name; send only what changes (`domains` replaces the list). `owner` must see the CRM for the company. Creating, archiving, `customer` and billing details are for the browser. Answers the company. Needs Edit the CRM for the company.',
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
  summary: 'List interactions',
  description: `Notes, calls, meetings, emails and tasks, latest first, paged by \`limit\` and \`offset\`, of exactly one \`contact\`, \`company\` or \`ticket\` (such as a deal); those about a ticket only if you may see it. ${SEE}`,
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
  summary: 'Log an interaction',
  description:
    "Records a note, call, meeting or task (emails arrive by mail) with at least one of `contact`, `company`, `ticket`. With a company or deal, `contact` must be its contact or one of the deal's people; a contact's company is linked. A call or meeting ahead of now is planned. A task takes `due_at` and `assignee` (you when left out; someone who may see it), reminded when due (list_follow_ups, complete_follow_up). Needs Edit the CRM for the company concerned.",
  body: LogInteractionBody,
  response: Interaction,
  status: 201,
  errors: ['not_found', 'forbidden', 'invalid', 'invalid_duration', 'not_assignable'],
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
  summary: 'Complete a follow-up',
  description:
    'Marks an open task done now and drops its reminder; one done already is answered unchanged. For its assignee, its author, or crm:manage for its company.',
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
  summary: 'Your open follow-ups',
  description:
    'Lists the open follow-ups (tasks not done) assigned to you, soonest due first and those with no due moment last; complete one with complete_follow_up. Empty if the CRM is closed to you.',
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
