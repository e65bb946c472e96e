import { UsageError } from './errors.ts';

const TOPICS: Record<string, string> = {
  serve: `atrium serve
  Starts the service: opens the database (creating the workspace, with the demo unless
  ATRIUM_DEMO=off), listens on HOST:PORT, prints the address, an administrator's login and the
  command that mints a token. Logs go to stdout as JSON. Stops on Ctrl+C (SIGINT) or SIGTERM.`,
  migrate: `atrium migrate
  Applies pending database migrations and lists them.`,
  workspace: `atrium workspace apply FILE
  Applies a workspace file (YAML): members, groups, roles, workflows, projects… Idempotent and
  atomic: a mistake names its place in the file and nothing is applied.`,
  member: `atrium member add --email E --name N [--admin] [--password P]
  atrium member set-password --member <email or name> [--password P]
      Without --password, asks for it without echoing (or reads the first line of stdin).
  atrium member deactivate --member <email or name>
      The member's tokens stop working at once.`,
  token: `atrium token create --member <email or name> --name <token name> --access read|write [--expires 30|90|365|never]
      Mints a personal token and prints it alone on stdout (it is shown once). Expires in 90 days
      unless --expires says otherwise.
  atrium token revoke --member <email or name> --name <token name>
      Revokes the member's live personal tokens of that name at once.`,
  settings: `atrium settings set <rest_api|mcp|boards|sprints|helpdesk|knowledge|time|crm> on|off
  Switches the REST API, the MCP server or a module; a running server obeys from its next request.`,
};

const OVERVIEW = `Atrium: self-hosted work management for teams and their AI agents.

Usage: atrium <command> [options]   (also: npx atrium …)

${Object.values(TOPICS).join('\n\n')}

  atrium help [command]

Every command reads the same environment as the server: PORT, HOST, PUBLIC_URL, DATA_DIR,
DATABASE_URL, LOG_LEVEL, ATRIUM_DEMO. While the server holds an embedded database (DATA_DIR),
commands run inside it through its control socket, DATA_DIR/atrium.sock.`;

export function helpText(topic?: string): string {
  if (topic === undefined) return OVERVIEW;
  const text = TOPICS[topic];
  if (!text) throw new UsageError(`help: no command "${topic}"; commands are ${Object.keys(TOPICS).join(', ')}`);
  return text;
}
