/** A mistake in a workspace file, named by its path in the file (`projects[2].workflow.transitions[0].to: …`). */
export class WorkspaceFileError extends Error {
  readonly path: string;
  readonly reason: string;

  constructor(path: string, reason: string) {
    super(path ? `${path}: ${reason}` : reason);
    this.path = path;
    this.reason = reason;
    this.name = 'WorkspaceFileError';
  }
}
