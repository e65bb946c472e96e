import type { ModuleDefinition } from '../../core/module.ts';
import type { WorkspaceSectionHandler } from '../../workspace/context.ts';
import { ticketDealHook } from './deals.ts';
import { crmOperations } from './operations.ts';
import { crmVisibility } from './record-visibility.ts';
import { crmSection } from './workspace-section.ts';

/**
 * The CRM module's door (spec 2.9, 4.7): contacts, companies, interactions and follow-ups, and
 * the CRM side of deals (tickets of sales projects) through the tickets' `ticketDeal` hook.
 */
export const crmModule: ModuleDefinition<WorkspaceSectionHandler> = {
  name: 'crm',
  switch: 'crm',
  operations: crmOperations,
  workspaceSections: [crmSection],
  hooks: { ticketDeal: ticketDealHook },
  visibility: crmVisibility,
};

// Whether the CRM is open to a member at all (the MCP server's instructions name its tools only then).
export { crmOpenTo } from './policy.ts';

// What the pages read of the CRM, run through its operations (search_contacts, get_contact, search_companies, get_company).
export type { Company, CompanyDetail, CompanyList, Contact, ContactDetail, ContactList } from './schemas.ts';

// CRM records named for the pages' account of what agents did, as far as the member may see them.
export { crmRecordsNamed, type CrmRecordKind, type NamedCrmRecord } from './records-named.ts';
