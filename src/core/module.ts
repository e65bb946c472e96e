import type { Hooks } from './hooks.ts';
import type { Operation } from './operation.ts';
import type { SwitchableModule } from './settings.ts';
import type { Visibilities } from './visibility.ts';

/**
 * A module of the service, as modules/index.ts assembles them: the operations it declares, the
 * sections it adds to the workspace file, and the extension points of other modules it fills in.
 * `S` is the workspace section type (workspace/ declares it; core does not import upward).
 */
export interface ModuleDefinition<S = unknown> {
  /** Its folder under src/modules; each operation names its own switch (`module`). */
  name: string;
  operations: readonly Operation[];
  /** Its sections of the workspace file, in the order they are checked and applied (after the platform's). */
  workspaceSections?: readonly S[];
  /** Implementations of other modules' extension points (core/hooks.ts). */
  hooks?: Partial<Hooks>;
  /** Who may see its records, by entity type (core/visibility.ts): what notifications, email and live pages ask. */
  visibility?: Visibilities;
  /** The switch its operations name, when it has one: while it is off its records reach nobody (core/visibility.ts). */
  switch?: SwitchableModule;
}

/** All modules' hooks in one object; two modules filling the same extension point is a mistake found at start-up. */
export function assembleHooks(modules: readonly ModuleDefinition<unknown>[]): Hooks {
  const hooks: Record<string, unknown> = {};
  for (const module of modules) {
    for (const [name, implementation] of Object.entries(module.hooks ?? {})) {
      if (name in hooks) throw new Error(`hook ${name} is filled in twice (again by module ${module.name})`);
      hooks[name] = implementation;
    }
  }
  return hooks as Hooks;
}
