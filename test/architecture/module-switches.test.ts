import { describe, expect, it } from 'vitest';
import { MODULE_HOSTS, MODULE_SWITCHES, type SwitchableModule } from '../../src/core/settings.ts';
import { modules, recordSwitches } from '../../src/modules/index.ts';

// A module's records reach nobody while the module is switched off (core/visibility.ts): that
// holds only if each module names, as its `switch`, the switch its operations are refused by.

const switchable = new Set<string>(MODULE_SWITCHES);

describe('a module names the switch its operations obey, so its records are switched off with it', () => {
  for (const module of modules) {
    it(module.name, () => {
      const switches = module.operations.map((op) => op.module).filter((m) => switchable.has(m));
      const named = [...new Set(switches)] as SwitchableModule[];
      if (named.length === 0) {
        expect(module.switch).toBeUndefined();
        return;
      }
      // every switch its operations name is the module's own, or one living on it (sprints on boards)
      for (const name of named) expect([name, MODULE_HOSTS[name]]).toContain(module.switch);
    });
  }

  it('gives each kind of record of a switched module its switch', () => {
    for (const module of modules) {
      for (const kind of Object.keys(module.visibility ?? {})) expect(recordSwitches[kind]).toBe(module.switch);
    }
  });
});
