import type { Kysely } from 'kysely';
import type { Hooks } from '../core/hooks.ts';
import type { DB } from '../storage/schema.ts';
import type { ExistingWorkspace } from './existing.ts';
import type { People } from './people.ts';
import type { WorkflowEntry, WorkspaceFile, WorkspaceFileParts } from './schema.ts';
import type { Writer } from './writer.ts';

/** How a member of the file will be written: which stored member it is, and its username. */
export interface MemberPlan {
  index: number;
  existingId: string | null;
  username: string;
}

/** A workflow the file may name: declared in the file (with where) or already stored. */
export interface KnownWorkflow {
  name: string;
  statuses: string[];
  declared: { entry: WorkflowEntry; path: string } | null;
}

/**
 * What the check step learns, section by section, before anything is written: the names the
 * file may refer to, from the file itself and from what the workspace already holds.
 */
export interface CheckContext {
  db: Kysely<DB>;
  file: WorkspaceFile;
  /** The modules' extension points, as the API has them (a seed ticket's request type asks the helpdesk). */
  hooks: Hooks;
  existing: ExistingWorkspace;
  memberPlans: MemberPlan[];
  people: People;
  groups: string[];
  roles: string[];
  /** By normalized name. */
  workflows: Map<string, KnownWorkflow>;
}

export interface StoredWorkflow {
  id: string;
  /** Status ids by normalized status name. */
  statusIds: Map<string, string>;
}

/** What the apply step holds while writing: the checked file, the writer, ids of what it wrote. */
export interface ApplyContext {
  db: Kysely<DB>;
  file: WorkspaceFile;
  hooks: Hooks;
  writer: Writer;
  checked: CheckContext;
  /** Every member, with ids, once the members section has been written. */
  people: People;
  /** Ids by normalized name. */
  groupIds: Map<string, string>;
  roleIds: Map<string, string>;
  workflows: Map<string, StoredWorkflow>;
}

/**
 * One section of the workspace file. Every section is checked before any is applied, in order:
 * the platform's (sections.ts), then each module's as modules/index.ts lists them. A module's
 * section declares the keys it reads (`fileKeys`, `projectKeys`) with their schemas; the file's
 * schema is assembled from them.
 */
export interface WorkspaceSectionHandler extends WorkspaceFileParts {
  name: string;
  check(ctx: CheckContext): void | Promise<void>;
  apply(ctx: ApplyContext): Promise<void>;
}
