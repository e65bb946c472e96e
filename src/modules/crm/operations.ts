import { defineOperation } from '../../core/operation.ts';
import { searchContacts, getContact } from './contacts-read.ts';
import { addContactEmail, addContactPhone, createContact, updateContact } from './contacts.ts';
import {
  AddEmailBody,
  AddPhoneBody,
  ContactDetail,
  ContactList,
  ContactParams,
  CreateContactBody,
  SearchContactsQuery,
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

export const crmOperations = [
  searchContactsOperation,
  getContactOperation,
  createContactOperation,
  updateContactOperation,
  addContactEmailOperation,
  addContactPhoneOperation,
];
