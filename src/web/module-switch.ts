import { ApiError } from '../core/errors.ts';
import { moduleOffReason, type SwitchableModule, type WorkspaceSettings } from '../core/settings.ts';

/** A page of a switched-off module refuses as the module's operations do: 403 saying which module is off. */
export function requireModuleOn(settings: WorkspaceSettings, module: SwitchableModule): void {
  const reason = moduleOffReason(module, settings);
  if (reason !== null) throw new ApiError('feature_disabled', reason);
}
