/** The pages' shared components: small render functions every module's pages use. */
export { breadcrumbs, type Crumb } from './breadcrumbs.ts';
export { button, linkButton, type ButtonKind } from './button.ts';
export { dialog } from './dialog.ts';
export { emptyState } from './empty-state.ts';
export { field, type Choice, type FieldOptions } from './field.ts';
export { flashMessage, type Flash } from './flash-message.ts';
export { form, htmxHeaders, type FormOptions } from './form.ts';
export { table, type Column } from './table.ts';
