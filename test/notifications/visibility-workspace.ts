/** Carl's CRM role once it is limited to one company. */
const CARL_LIMITED = '- { role: CRM editor, members: [carl@example.com], companies: [Globex Corporation] }';

/**
 * The visibility table's workspace. One member per reason a member may not see a record, and Vera,
 * who may see everything (the positive control). `later` is the same file after Finn and Carl lose
 * access through it (the "loses access later" rows):
 *   vera  every project, the Embargo level, the whole CRM, the secret space (edits it): sees everything
 *   wes   the same, and the author of a draft; assignee and watcher of SOFT-1
 *   lena  views SOFT, HELP and SALES but is not in the Embargo level (SOFT-1 is behind it; she
 *         reported it, so she watches it); sees the whole CRM
 *   olga  no project role anywhere and no CRM role: the CRM is closed to her
 *   carl  views SOFT; views HELP, later not; edits the whole CRM, later only Globex Corporation's
 *   finn  everything Vera has (edits the secret space); later only views SOFT (not the level), no HELP or SALES role,
 *         no CRM role, no secret space
 */
export function visibilityWorkspace(later: boolean): string {
  const finnAgent = later ? '' : ', finn@example.com';
  const finnViewer = later ? ', finn@example.com' : '';
  const crmEditors = `wes@example.com, vera@example.com${later ? '' : ', finn@example.com, carl@example.com'}`;
  const carlHelp = later ? '' : ', carl@example.com';
  return `
workspace:
  name: Visibility table
  rest_api: true
  mcp: true
  default_priority: Medium
  priorities: [High, Medium, Low]

members:
  - { name: Ada Admin, email: ada@example.com, username: ada, admin: true }
  - { name: Wes Writer, email: wes@example.com, username: wes }
  - { name: Vera Viewer, email: vera@example.com, username: vera, password: vera-password }
  - { name: Lena Level, email: lena@example.com, username: lena, password: lena-password }
  - { name: Olga Outsider, email: olga@example.com, username: olga, password: olga-password }
  - { name: Carl Company, email: carl@example.com, username: carl, password: carl-password }
  - { name: Finn Fading, email: finn@example.com, username: finn, password: finn-password }

roles:
  - name: Agent
    permissions:
      [project:view, ticket:create, ticket:edit, ticket:assign, ticket:transition, ticket:comment, helpdesk:forms]
  - name: Viewer
    permissions: [project:view]
  - name: CRM editor
    permissions: [crm:view, crm:edit]
  - name: CRM viewer
    permissions: [crm:view]

workflows:
  - name: Simple
    statuses:
      - { name: Open, category: todo }
      - { name: Done, category: done }
    transitions:
      - { name: Finish, from: any, to: Done }

projects:
  - key: SOFT
    name: Software
    kind: software
    workflow: Simple
    ticket_types: [Task]
    security_levels:
      - { name: Embargo, members: [wes@example.com, vera@example.com${finnAgent}] }
    roles:
      - { role: Agent, members: [wes@example.com, vera@example.com${finnAgent}] }
      - { role: Viewer, members: [lena@example.com, carl@example.com${finnViewer}] }
    tickets:
      - number: 1
        summary: Embargoed launch
        security_level: Embargo
        reporter: lena@example.com
        assignee: wes@example.com
      - { number: 2, summary: Plain ticket, reporter: wes@example.com }
  - key: HELP
    name: Help desk
    kind: helpdesk
    workflow: Simple
    ticket_types: [Question]
    roles:
      - { role: Agent, members: [wes@example.com, vera@example.com${finnAgent}] }
      - { role: Viewer, members: [lena@example.com${carlHelp}] }
    tickets:
      - { number: 1, summary: Printer on fire, reporter: wes@example.com }
  - key: SALES
    name: Sales
    kind: sales
    workflow: Simple
    ticket_types: [Deal]
    roles:
      - { role: Agent, members: [wes@example.com, vera@example.com${finnAgent}] }
      - { role: Viewer, members: [lena@example.com] }
    tickets:
      - { number: 1, summary: Acme fifty seats, reporter: wes@example.com }

boards:
  - number: 1
    name: Software board
    kind: kanban
    projects: [SOFT]
    columns:
      - { name: Open, statuses: [Open] }
      - { name: Done, statuses: [Done] }

spaces:
  - key: OPEN
    name: Open space
    read: { everyone: true }
    edit: { members: [wes@example.com] }
    pages:
      - { slug: target, title: Target page, body: "Tracks SOFT-1 and SOFT-2.", author: wes@example.com }
      - slug: salaries
        title: Walrus bands
        body: "The walrus salary bands, see [[target]]."
        author: wes@example.com
        restrictions: { view: { members: [vera@example.com, wes@example.com] } }
      - { slug: idea, title: Quokka idea, body: "A quokka draft, [[target]].", author: wes@example.com, draft: true }
  - key: SECRET
    name: Secret space
    read: { members: [vera@example.com, wes@example.com${finnAgent}] }
    edit: { members: [vera@example.com, wes@example.com${finnAgent}] }
    pages:
      - { slug: plan, title: Zeppelin plan, body: "The zeppelin cargo, see [[OPEN:target]].", author: wes@example.com }

crm:
  roles:
    - { role: CRM editor, members: [${crmEditors}] }
    - { role: CRM viewer, members: [lena@example.com] }${later ? `\n    ${CARL_LIMITED}` : ''}
  companies:
    - { name: Acme GmbH }
    - { name: Globex Corporation }
  deals:
    - { ticket: SALES-1, company: Acme GmbH }
`;
}
