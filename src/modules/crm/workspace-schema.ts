import { Type, type Static } from 'typebox';
import { Nullable, StringEnum } from '../../core/schema-kit.ts';
import { fileEntryFrom, Name, Names, People, PersonRef, Strict } from '../../workspace/schema.ts';
import { CreateContactBody, EmailAddress, LogInteractionBody, PhoneNumber, UpdateCompanyBody } from './schemas.ts';
import { EMAIL_LABELS, INTERACTION_KINDS, PHONE_LABELS } from './tables.ts';

/**
 * `crm` of the workspace file (docs/workspace-file.md): who holds which CRM role, the companies
 * (created and archived in the browser, which the file stands in for), and seed contacts, deals'
 * companies and people, and interactions. Entries the API also creates are built from its bodies.
 */

const CompanyName = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'a company by name (declared in `companies` or already stored)',
});
const ContactRef = Type.String({ minLength: 1, maxLength: 255, description: 'a contact by one of its email addresses, or by its name' });

export const CrmRoleEntry = Type.Object(
  {
    role: Name('a role from `roles`: its crm:view, crm:edit and crm:manage apply in the CRM'),
    members: Type.Optional(People('members who hold it')),
    groups: Type.Optional(Names('groups whose members hold it')),
    companies: Type.Optional(Names('companies by name where it is held; left out: the whole CRM', { minItems: 1 })),
  },
  Strict,
);
export type CrmRoleEntry = Static<typeof CrmRoleEntry>;

export const CompanyEntry = fileEntryFrom(
  UpdateCompanyBody,
  {
    name: Type.String({ minLength: 1, maxLength: 255, description: 'identifies the company across applies (case-insensitive)' }),
    owner: Type.Optional(Nullable(PersonRef)),
    customer: Type.Optional(Type.Boolean({ description: 'a customer: set by an administrator, never through the API' })),
    archived: Type.Optional(Type.Boolean()),
  },
  'upserted by name; a field left out keeps its stored value (a new company: its default)',
);
export type CompanyEntry = Omit<Static<typeof UpdateCompanyBody>, 'name' | 'owner'> & {
  name: string;
  owner?: string | null;
  customer?: boolean;
  archived?: boolean;
};

const EmailEntry = Type.Object(
  { address: EmailAddress, label: Type.Optional(StringEnum(EMAIL_LABELS)), primary: Type.Optional(Type.Boolean()) },
  Strict,
);
const PhoneEntry = Type.Object(
  { number: PhoneNumber, label: Type.Optional(StringEnum(PHONE_LABELS)), primary: Type.Optional(Type.Boolean()) },
  Strict,
);

export const ContactEntry = fileEntryFrom(
  CreateContactBody,
  {
    company: Type.Optional(Nullable(CompanyName)),
    owner: Type.Optional(Nullable(PersonRef)),
    emails: Type.Optional(Type.Array(EmailEntry, { description: 'more addresses, after `email`' })),
    phones: Type.Optional(Type.Array(PhoneEntry, { description: 'more numbers, after `phone`' })),
    postal_addresses: Type.Optional(
      Type.Array(Type.Object({ label: Name(), lines: Type.Array(Type.String({ maxLength: 255 }), { minItems: 1 }) }, Strict)),
    ),
    fields: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.String(), { description: 'custom fields by field name' })),
    consent: Type.Optional(
      Type.Array(Type.Object({ purpose: Name(), granted: Type.Boolean(), recorded_at: Type.String({ format: 'date-time' }) }, Strict), {
        description: 'answers as recorded; the latest per purpose is shown',
      }),
    ),
    source: Type.Optional(Name('where the contact came from; `workspace file` when left out')),
    archived: Type.Optional(Type.Boolean()),
  },
  'created once: a contact already stored with one of its addresses (or, with none, its name) is left alone',
);
export type ContactEntry = Omit<Static<typeof CreateContactBody>, 'company' | 'owner'> & {
  company?: string | null;
  owner?: string | null;
  emails?: Static<typeof EmailEntry>[];
  phones?: Static<typeof PhoneEntry>[];
  postal_addresses?: { label: string; lines: string[] }[];
  fields?: Record<string, string>;
  consent?: { purpose: string; granted: boolean; recorded_at: string }[];
  source?: string;
  archived?: boolean;
};

export const DealEntry = Type.Object(
  {
    ticket: Type.String({ minLength: 1, description: 'the deal: a ticket of a sales project, by key' }),
    company: Type.Optional(Nullable(CompanyName)),
    contacts: Type.Optional(
      Type.Array(Type.Object({ contact: ContactRef, role: Type.Optional(Nullable(Type.String({ maxLength: 255 }))) }, Strict), {
        description: 'the people on the deal, the whole list (not changeable through the API)',
      }),
    ),
  },
  Strict,
);
export type DealEntry = Static<typeof DealEntry>;

export const InteractionEntry = fileEntryFrom(
  LogInteractionBody,
  {
    kind: StringEnum(INTERACTION_KINDS, { description: 'an `email` only here (a message imported from mail)' }),
    contact: Type.Optional(ContactRef),
    assignee: Type.Optional(PersonRef),
    author: Type.Optional(Nullable(PersonRef)),
    done_at: Type.Optional(Type.String({ format: 'date-time', description: 'a task already done' })),
  },
  'created once: one already stored with the same subject, contact, company and ticket is left alone',
);
export type InteractionEntry = Omit<Static<typeof LogInteractionBody>, 'kind' | 'contact' | 'assignee'> & {
  kind: (typeof INTERACTION_KINDS)[number];
  contact?: string;
  assignee?: string;
  author?: string | null;
  done_at?: string;
};

export const CrmSectionEntry = Type.Object(
  {
    roles: Type.Optional(Type.Array(CrmRoleEntry, { description: 'who holds which CRM role: the whole list' })),
    companies: Type.Optional(Type.Array(CompanyEntry, { description: 'upserted by name; companies left out stay as they are' })),
    contacts: Type.Optional(Type.Array(ContactEntry, { description: 'seed contacts, created once' })),
    deals: Type.Optional(Type.Array(DealEntry, { description: 'the company and people of deals (tickets of sales projects)' })),
    interactions: Type.Optional(Type.Array(InteractionEntry, { description: 'seed interactions, created once' })),
  },
  { ...Strict, description: 'the CRM: roles, companies, and seed contacts, deals and interactions' },
);

export interface CrmSectionEntry {
  roles?: CrmRoleEntry[];
  companies?: CompanyEntry[];
  contacts?: ContactEntry[];
  deals?: DealEntry[];
  interactions?: InteractionEntry[];
}
