import type { Operation } from '../core/operation.ts';
import { MODULE_SWITCHES, type SwitchableModule } from '../core/settings.ts';
import { registry } from '../modules/index.ts';

/**
 * The module switches whose module is built: some operation of the service answers to the switch.
 * A module still on its way (listed with no operations, or not listed at all) has nothing to turn
 * on, so the settings page says "not available yet" instead of offering it. Read from the
 * operations, never from a list of names: a module becomes available the day its operations land.
 */
export function builtModules(operations: readonly Operation[] = registry.operations): ReadonlySet<SwitchableModule> {
  return new Set(MODULE_SWITCHES.filter((name) => operations.some((op) => op.module === name)));
}
