import { migrateToLatest } from '../storage/migrate.ts';
import { parseOptions } from './args.ts';
import { defineCommand } from './command.ts';

export const migrate = defineCommand({
  name: 'migrate',
  createsWorkspace: true,
  parse(argv) {
    parseOptions('migrate', argv, {});
    return {};
  },
  async run(db, _args, context) {
    // Opening the database here already migrated it; behind the socket the server did at start.
    const applied = [...(context.opening?.applied ?? []), ...(await migrateToLatest(db)).applied];
    return applied.length === 0
      ? 'the database is up to date; no migration to apply'
      : `applied ${applied.length} migration${applied.length === 1 ? '' : 's'}: ${applied.join(', ')}`;
  },
});
