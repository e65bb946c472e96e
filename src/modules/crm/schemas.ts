import { Type, type Static } from 'typebox';
import { DateOnly, Nullable, Offset, shared, StringEnum, Timestamp, Uuid } from '../../core/schema-kit.ts';
import { Person, Reference, RichText, Status } from '../../core/shapes.ts';
import { COMPANY_SIZES, COMPANY_STAGES, CONTACT_STAGES, EMAIL_LABELS, INTERACTION_KINDS, PHONE_LABELS } from './tables.ts';

// ---- answers (spec 2.9) ----

export const ContactStage = StringEnum(CONTACT_STAGES, { description: '`lead` (a new contact), `qualified`, `customer`, `former`' });
export const CompanyStage = StringEnum(COMPANY_STAGES, { description: '`lead`, `prospect`, `customer`, `former`' });
export const CompanySize = StringEnum(COMPANY_SIZES, { description: 'employees' });
const Url = (what: string) => Type.String({ format: 'uri', description: `the ${what}’s page in the service` });

const contactFields = {
  id: Uuid,
  name: Type.String(),
  job_title: Nullable(Type.String()),
  stage: ContactStage,
  company: Nullable(Reference),
  owner: Nullable(Person),
  email: Nullable(Type.String({ description: 'the primary address' })),
  archived: Type.Boolean(),
  url: Url('contact'),
};

export const Contact = shared('Contact', Type.Object(contactFields));
export type Contact = Static<typeof Contact>;

export const ContactEmail = Type.Object({ address: Type.String(), label: StringEnum(EMAIL_LABELS), primary: Type.Boolean() });
export const ContactPhone = Type.Object({
  number: Type.String({ description: 'as written' }),
  label: StringEnum(PHONE_LABELS),
  primary: Type.Boolean(),
});

export const ContactDetail = shared(
  'ContactDetail',
  Type.Object({
    ...contactFields,
    emails: Type.Array(ContactEmail, { description: 'the primary first, then in the order added' }),
    phones: Type.Array(ContactPhone, { description: 'the primary first, then in the order added' }),
    postal_addresses: Type.Array(Type.Object({ label: Type.String(), lines: Type.Array(Type.String()) })),
    notes: Nullable(RichText),
    source: Type.String({ description: 'where the contact came from: `api`, `workspace file`, or what an import named' }),
    has_account: Type.Boolean({ description: "one of its addresses is a member's: the person can sign in, as a helpdesk customer can" }),
    created_at: Timestamp,
    fields: Type.Record(Type.String(), Type.String(), { description: 'custom fields that have a value, by field name' }),
    consent: Type.Array(Type.Object({ purpose: Type.String(), granted: Type.Boolean(), recorded_at: Timestamp }), {
      description: 'the latest answer per purpose; a purpose that is absent was never asked and counts as no',
    }),
  }),
);
export type ContactDetail = Static<typeof ContactDetail>;

export const ContactList = shared(
  'ContactList',
  Type.Object({
    contacts: Type.Array(Contact, { description: 'newest first' }),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
  }),
);
export type ContactList = Static<typeof ContactList>;

const companyFields = {
  id: Uuid,
  name: Type.String(),
  domains: Type.Array(Type.String()),
  stage: CompanyStage,
  industry: Nullable(Type.String()),
  size: Nullable(CompanySize),
  website: Nullable(Type.String()),
  owner: Nullable(Person),
  customer: Type.Boolean({ description: 'set by an administrator in the browser' }),
  archived: Type.Boolean(),
  url: Url('company'),
};

export const Company = shared('Company', Type.Object(companyFields));
export type Company = Static<typeof Company>;

export const CompanyList = shared(
  'CompanyList',
  Type.Object({
    companies: Type.Array(Company, { description: 'by name' }),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
  }),
);
export type CompanyList = Static<typeof CompanyList>;

export const DealSummary = shared(
  'DealSummary',
  Type.Object({
    key: Type.String(),
    summary: Type.String(),
    status: Nullable(Status),
    assignee: Nullable(Person),
    value: Nullable(Type.String({ description: 'in its own currency, never converted' })),
    currency: Nullable(Type.String()),
    expected_close: Nullable(DateOnly),
    probability: Nullable(Type.String()),
  }),
);
export type DealSummary = Static<typeof DealSummary>;

export const CompanyDetail = shared(
  'CompanyDetail',
  Type.Object({
    ...companyFields,
    description: Nullable(RichText),
    contacts: Type.Array(Contact, { description: 'its contacts that are not archived, by name' }),
    deals: Type.Object(
      {
        open: Type.Array(DealSummary, { description: 'not in a done status; soonest expected close first' }),
        closed: Type.Array(DealSummary, { description: 'in a done status (won or lost); most recently closed first' }),
      },
      { description: 'only deals you may see' },
    ),
  }),
);
export type CompanyDetail = Static<typeof CompanyDetail>;

export const Interaction = shared(
  'Interaction',
  Type.Object({
    id: Uuid,
    kind: StringEnum(INTERACTION_KINDS),
    subject: Type.String(),
    body: RichText,
    occurred_at: Type.String({ format: 'date-time', description: 'ISO 8601 in UTC; a call or meeting ahead of now is planned' }),
    duration_seconds: Type.Integer({ description: '0 when none was given' }),
    author: Nullable(Person),
    contact: Nullable(Reference),
    company: Nullable(Reference),
    ticket: Nullable(Type.String({ description: 'ticket key' })),
    due_at: Nullable(Timestamp),
    assignee: Nullable(Person),
    done_at: Nullable(Timestamp),
    email: Type.Boolean({ description: 'a sent or received message is behind it' }),
    url: Url('interaction'),
  }),
);
export type Interaction = Static<typeof Interaction>;

export const InteractionList = shared(
  'InteractionList',
  Type.Object({ interactions: Type.Array(Interaction, { description: 'latest first' }), limit: Type.Integer(), offset: Type.Integer() }),
);
export type InteractionList = Static<typeof InteractionList>;

export const FollowUpList = shared(
  'FollowUpList',
  Type.Object({
    follow_ups: Type.Array(Interaction, {
      description: 'open follow-ups assigned to you, soonest due first, those with no due moment last',
    }),
  }),
);
export type FollowUpList = Static<typeof FollowUpList>;

// ---- requests (spec 4.7) ----

/** Spec 8: contact names, company names and interaction subjects are up to 255 characters. */
const Name255 = (description?: string) => Type.String({ minLength: 1, maxLength: 255, ...(description ? { description } : {}) });
const Markdown = (description = 'Markdown') => Type.String({ maxLength: 100_000, description });
const PersonName = Type.String({ minLength: 1, maxLength: 255, description: '`me`, a display name or a member id' });
const CompanyName = Type.String({ minLength: 1, maxLength: 255, description: 'a company by name or id' });
const Limit = Type.Integer({ minimum: 1, maximum: 100, default: 20 });
const Id = (what: string) => Type.String({ minLength: 1, maxLength: 64, description: `the ${what}’s id` });
export const EmailAddress = Type.String({
  format: 'email',
  maxLength: 254,
  description: 'an email address; one contact in the workspace has it',
});
export const PhoneNumber = Type.String({ minLength: 1, maxLength: 64, pattern: '\\d', description: 'kept as written' });

export const ContactParams = Type.Object({ id: Id('contact') });
export const CompanyParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 255, description: "the company's id or name" }) });
export const InteractionParams = Type.Object({ id: Id('interaction') });

export const SearchContactsQuery = Type.Object({
  q: Type.Optional(
    Type.String({ maxLength: 500, description: 'words (and beginnings of words) in the name, job title or an email address' }),
  ),
  company: Type.Optional(CompanyName),
  stage: Type.Optional(ContactStage),
  owner: Type.Optional(PersonName),
  archived: Type.Optional(Type.Boolean({ description: 'true: archived contacts instead' })),
  limit: Type.Optional(Limit),
  offset: Type.Optional(Offset),
});
export type SearchContactsQuery = Static<typeof SearchContactsQuery>;

export const CreateContactBody = Type.Object({
  name: Name255(),
  job_title: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  company: Type.Optional(Nullable(CompanyName)),
  stage: Type.Optional(ContactStage),
  owner: Type.Optional(Nullable(PersonName)),
  notes: Type.Optional(Nullable(Markdown())),
  email: Type.Optional(EmailAddress),
  phone: Type.Optional(PhoneNumber),
});
export type CreateContactBody = Static<typeof CreateContactBody>;

export const UpdateContactBody = Type.Object({
  name: Type.Optional(Name255()),
  job_title: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  company: Type.Optional(Nullable(CompanyName)),
  stage: Type.Optional(ContactStage),
  owner: Type.Optional(Nullable(PersonName)),
  notes: Type.Optional(Nullable(Markdown())),
});
export type UpdateContactBody = Static<typeof UpdateContactBody>;

export const AddEmailBody = Type.Object({
  address: EmailAddress,
  label: Type.Optional(StringEnum(EMAIL_LABELS, { default: 'work' })),
  primary: Type.Optional(Type.Boolean({ description: "true: becomes the primary address (the contact's first address always is)" })),
});
export type AddEmailBody = Static<typeof AddEmailBody>;

export const AddPhoneBody = Type.Object({
  number: PhoneNumber,
  label: Type.Optional(StringEnum(PHONE_LABELS, { default: 'work' })),
  primary: Type.Optional(Type.Boolean({ description: "true: becomes the primary number (the contact's first number always is)" })),
});
export type AddPhoneBody = Static<typeof AddPhoneBody>;

export const SearchCompaniesQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 500, description: 'words (and beginnings of words) in the name, industry or a domain' })),
  stage: Type.Optional(CompanyStage),
  owner: Type.Optional(PersonName),
  customers: Type.Optional(Type.Boolean({ description: 'true: customers only' })),
  archived: Type.Optional(Type.Boolean({ description: 'true: archived companies instead' })),
  limit: Type.Optional(Limit),
  offset: Type.Optional(Offset),
});
export type SearchCompaniesQuery = Static<typeof SearchCompaniesQuery>;

export const Domain = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$',
  description: 'a domain name such as `acme.example`',
});

export const UpdateCompanyBody = Type.Object({
  name: Type.Optional(Name255('unique in the workspace')),
  website: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
  industry: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  size: Type.Optional(Nullable(CompanySize)),
  stage: Type.Optional(CompanyStage),
  owner: Type.Optional(Nullable(PersonName)),
  description: Type.Optional(Nullable(Markdown())),
  domains: Type.Optional(Type.Array(Domain, { maxItems: 50, description: "the whole list; replaces the company's domains" })),
});
export type UpdateCompanyBody = Static<typeof UpdateCompanyBody>;

export const ListInteractionsQuery = Type.Object({
  contact: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "a contact's id" })),
  company: Type.Optional(CompanyName),
  ticket: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'a ticket key' })),
  kind: Type.Optional(StringEnum(INTERACTION_KINDS)),
  limit: Type.Optional(Limit),
  offset: Type.Optional(Offset),
});
export type ListInteractionsQuery = Static<typeof ListInteractionsQuery>;

const Moment = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

export const LogInteractionBody = Type.Object({
  kind: StringEnum(['note', 'call', 'meeting', 'task'] as const, { description: 'an email is never typed in' }),
  subject: Name255(),
  body: Type.Optional(Markdown()),
  contact: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "who it was with: a contact's id" })),
  company: Type.Optional(CompanyName),
  ticket: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'a ticket key (a deal, or any ticket you can see)' })),
  occurred_at: Type.Optional(Moment('ISO 8601 with an offset, or local `YYYY-MM-DDTHH:MM` with `timezone`; now when left out')),
  duration: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'like `30m` or `1h 15m`' })),
  due_at: Type.Optional(Moment('tasks: when it is due, written as occurred_at; the assignee is reminded then')),
  assignee: Type.Optional(PersonName),
  timezone: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'an IANA time zone such as Europe/Berlin; needed with a local time' }),
  ),
});
export type LogInteractionBody = Static<typeof LogInteractionBody>;
