import { DEFAULT_TOKEN_LIFETIME } from '../auth/personal-tokens.ts';
import { WORKSPACE_SWITCHES } from '../core/settings.ts';
import { UsageError } from './errors.ts';

interface CommandHelp {
  /** The full command name: `token create`. */
  name: string;
  /** What follows the name on the command line. */
  usage: string;
  /** One line for the overview. */
  summary: string;
  /** Sentences for the command's own help. */
  about: string;
  options?: readonly (readonly [string, string])[];
}

const MEMBER = ['--member M', 'the member: email address, display name or username'] as const;
const lifetime = DEFAULT_TOKEN_LIFETIME === null ? 'never' : `${DEFAULT_TOKEN_LIFETIME} days`;

const COMMANDS: readonly CommandHelp[] = [
  {
    name: 'serve',
    usage: '',
    summary: 'start the service (what npm start runs)',
    about: `Starts the service: opens the database (creating the workspace where there is none, with the
demo unless ATRIUM_DEMO=off), listens on HOST:PORT and prints the address, an administrator's
login and the commands that reach this server. Logs go to stdout as JSON. Stops on Ctrl+C
(SIGINT) or SIGTERM; a second signal stops at once.`,
  },
  {
    name: 'migrate',
    usage: '',
    summary: 'bring the database up to date; create the workspace where there is none',
    about: `Applies pending database migrations and lists them. Where there is no workspace yet, creates
it (with the demo unless ATRIUM_DEMO=off), as serve would. No other command creates one.`,
  },
  {
    name: 'workspace apply',
    usage: 'FILE',
    summary: 'apply a workspace file (YAML)',
    about: `Applies a workspace file: members, groups, roles, workflows, projects… Idempotent and atomic:
a mistake names its place in the file and nothing is applied. Written to the audit log. Refused
while the workspace is read-only.`,
  },
  {
    name: 'member add',
    usage: '--email E --name N [--admin] [--password P]',
    summary: 'add a member',
    about: `Adds a member (an administrator with --admin). Written to the audit log. Refused while the
workspace is read-only.`,
    options: [
      ['--email E', 'their email address (they log in with it)'],
      ['--name N', 'their display name'],
      ['--admin', 'make them an administrator'],
      ['--password P', 'at least 8 characters; without it, set one later with member set-password'],
    ],
  },
  {
    name: 'member set-password',
    usage: '--member M [--password P]',
    summary: "set a member's password",
    about: `Sets a member's password. Without --password, asks for it twice without echoing it (or reads
the first line of stdin). Their tokens keep working. Written to the audit log (never the password).`,
    options: [MEMBER, ['--password P', 'at least 8 characters']],
  },
  {
    name: 'member deactivate',
    usage: '--member M',
    summary: 'deactivate a member; their tokens stop working at once',
    about: 'Deactivates a member: they cannot log in and their tokens stop working at once. Written to the audit log.',
    options: [MEMBER],
  },
  {
    name: 'member list',
    usage: '',
    summary: 'list the members',
    about: 'Lists every member: name, email address, username, whether an administrator, whether active.',
  },
  {
    name: 'token create',
    usage: '--member M --name N --access read|write [--expires 30|90|365|never]',
    summary: 'mint a personal token for an agent; prints it alone',
    about: `Mints a personal token for a member's agent and prints it alone on stdout (it is shown once).
It expires in ${lifetime}, as one made on the AI agents page does, unless --expires says otherwise.`,
    options: [
      MEMBER,
      ['--name N', "the token's name, shown in history beside the member's"],
      ['--access read|write', 'read, or read and change'],
      ['--expires 30|90|365|never', `days until it expires (default ${lifetime}), or never`],
    ],
  },
  {
    name: 'token list',
    usage: '--member M',
    summary: "list a member's personal tokens (never the secrets)",
    about: `Lists a member's personal tokens that are not revoked: name, access, created, last used and
expires (times in UTC). A token's secret is shown only once, when it is made, and never here.`,
    options: [MEMBER],
  },
  {
    name: 'token revoke',
    usage: '--member M --name N',
    summary: "revoke a member's tokens of that name",
    about: "Revokes the member's live personal tokens of that name at once (names compare case-insensitively).",
    options: [MEMBER, ['--name N', "the token's name, as token list shows it"]],
  },
  {
    name: 'settings set',
    usage: `<${WORKSPACE_SWITCHES.join('|')}> on|off`,
    summary: 'switch the REST API, the MCP server, a module, or the workspace read-only',
    about: `Switches the REST API, the MCP server or a module; or, with read_only, makes the whole workspace
read-only: every change through the API, MCP, the pages, workspace apply and member add is refused
with 403, while reading, logging in and tokens keep working. A running server obeys from its next
request, on every node. Written to the audit log.`,
  },
  {
    name: 'backup',
    usage: 'FILE',
    summary: 'back up the embedded database (DATA_DIR) to one file',
    about: `Writes the embedded database (DATA_DIR) to FILE, a gzipped tarball, with every change committed
before it began. The server may keep running: the command runs inside it, which writes FILE
(give a path its user may write). On PostgreSQL (DATABASE_URL), use pg_dump instead.`,
  },
  {
    name: 'restore',
    usage: 'FILE',
    summary: 'restore a backup into a DATA_DIR that holds no database yet',
    about: `Makes FILE (written by atrium backup) the embedded database of DATA_DIR, which must hold no
database yet: move the old folder aside, or give a new DATA_DIR. No server may run on it. Start
the server there afterwards; it brings an older backup up to date as it starts. On PostgreSQL
(DATABASE_URL), use pg_restore instead.`,
  },
];

const ENVIRONMENT = `Every command reads the same environment as the server: PORT, HOST, PUBLIC_URL, DATA_DIR,
DATABASE_URL, LOG_LEVEL, ATRIUM_DEMO. Give a command the server's DATA_DIR or DATABASE_URL: the
server's start-up banner prints its commands with them. While the server holds an embedded
database (DATA_DIR), commands run inside it through its control socket, DATA_DIR/atrium.sock.
Exit status: 0 done, 1 refused or failed, 2 a command line that makes no sense.`;

/** Two columns, the second starting where the longest first one ends (plus two spaces). */
export function columns(rows: readonly (readonly [string, string])[], indent = '  '): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${indent}${left.padEnd(width)}  ${right}`.trimEnd()).join('\n');
}

function usageLine(command: CommandHelp): string {
  return `atrium ${command.name}${command.usage ? ` ${command.usage}` : ''}`;
}

function overview(version: string): string {
  const rows: [string, string][] = COMMANDS.map((c) => [`atrium ${c.name}${c.usage === 'FILE' ? ' FILE' : ''}`, c.summary]);
  rows.push(
    ['atrium help [command]', "this help, or a command's (also: atrium <command> --help)"],
    ['atrium --version', 'print the version'],
  );
  return `Atrium ${version}: self-hosted work management for teams and their AI agents.

Usage: atrium <command> [options]   (also: npx atrium …)

Commands:
${columns(rows)}

${ENVIRONMENT}`;
}

function commandHelp(command: CommandHelp): string {
  const parts = [`Usage: ${usageLine(command)}`, command.about];
  if (command.options) parts.push(`Options:\n${columns(command.options)}`);
  return parts.join('\n\n');
}

/** The command names, for "unknown command" messages. */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map((c) => c.name);

/**
 * Help for nothing (the overview), a group (`token`: each of its commands in full) or a command
 * (`token create`). An unknown topic is a usage error listing the ones there are.
 */
export function helpText(words: readonly string[], version: string): string {
  if (words.length === 0) return overview(version);
  const topic = words.join(' ');
  const exact = COMMANDS.find((c) => c.name === topic);
  if (exact) return commandHelp(exact);
  const group = COMMANDS.filter((c) => c.name.split(' ')[0] === topic);
  if (group.length > 0) return group.map(commandHelp).join('\n\n\n');
  throw new UsageError(`help: no command "${topic}"; commands are ${COMMAND_NAMES.join(', ')}`);
}
