import { requireUnique } from './check-names.ts';
import { applyWorkflowEntry, loadStoredWorkflows } from './apply-workflow-entry.ts';
import { checkWorkflowEntry, registerWorkflow } from './check-workflow.ts';
import type { ApplyContext, CheckContext, WorkspaceSectionHandler } from './context.ts';

function check(ctx: CheckContext): void {
  const workflows = ctx.file.workflows ?? [];
  requireUnique(workflows, (w) => w.name, ['workflows'], 'workflow');
  workflows.forEach((workflow, w) => {
    checkWorkflowEntry(ctx, workflow, ['workflows', w]);
    registerWorkflow(ctx, workflow, ['workflows', w]);
  });
}

/** Workflows are upserted by name; workflows the file does not list are left as they are. */
async function apply(ctx: ApplyContext): Promise<void> {
  await loadStoredWorkflows(ctx);
  for (const [w, workflow] of (ctx.file.workflows ?? []).entries()) {
    await applyWorkflowEntry(ctx, workflow, ['workflows', w]);
  }
}

export const workflowsSection: WorkspaceSectionHandler = { name: 'workflows', check, apply };
