import { Type, type Static } from 'typebox';
import { Nullable, shared, StringEnum } from '../../core/schema-kit.ts';
import { Person } from '../../core/shapes.ts';

export const ProjectKind = StringEnum(['software', 'helpdesk', 'business', 'sales']);

export const ProjectKey = Type.String({
  minLength: 1,
  maxLength: 20,
  description: 'A project key such as `ATR` (case-insensitive)',
});

const projectFields = {
  key: Type.String(),
  name: Type.String(),
  kind: ProjectKind,
  description: Nullable(Type.String()),
};

export const Project = shared('Project', Type.Object(projectFields));
export type Project = Static<typeof Project>;

export const ProjectList = shared('ProjectList', Type.Object({ projects: Type.Array(Project) }));

export const ProjectDetail = shared(
  'ProjectDetail',
  Type.Object({
    ...projectFields,
    ticket_types: Type.Array(Type.String()),
    priorities: Type.Array(Type.String()),
    resolutions: Type.Array(Type.String()),
    components: Type.Array(Type.String()),
    versions: Type.Array(Type.String()),
    labels: Type.Array(Type.String()),
    assignable_users: Type.Array(Person, { description: 'members who may move tickets in the project, and administrators' }),
  }),
);
export type ProjectDetail = Static<typeof ProjectDetail>;
