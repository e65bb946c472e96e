/** What one apply wrote, table by table; an apply that wrote nothing leaves config_version alone. */
export interface TableChanges {
  table: string;
  created: number;
  updated: number;
  deleted: number;
}

export class ChangeLog {
  private readonly tables = new Map<string, TableChanges>();

  note(table: string, kind: 'created' | 'updated' | 'deleted', count = 1): void {
    if (count === 0) return;
    let entry = this.tables.get(table);
    if (!entry) {
      entry = { table, created: 0, updated: 0, deleted: 0 };
      this.tables.set(table, entry);
    }
    entry[kind] += count;
  }

  get changed(): boolean {
    return this.tables.size > 0;
  }

  list(): TableChanges[] {
    return [...this.tables.values()];
  }
}
