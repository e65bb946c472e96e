/**
 * Extension points: a module offers one by adding an optional property to this interface (by
 * declaration merging, from its own `hooks.ts`), another module fills it in through its
 * ModuleDefinition, and modules/index.ts hands the assembled object to every context. So a module
 * asks for what it needs without importing the module that provides it (tickets ask "which
 * request type is this?" without knowing the helpdesk).
 */
// Empty on purpose: modules add their properties by declaration merging.
// biome-ignore lint/suspicious/noEmptyInterface: modules add their properties by declaration merging
export interface Hooks {}
