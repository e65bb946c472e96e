/** A mistake in a workspace file, named by its path in the file (`projects[2].workflow.transitions[0].to: …`). */
export class WorkspaceFileError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(path ? `${path}: ${reason}` : reason);
    this.name = 'WorkspaceFileError';
  }
}
