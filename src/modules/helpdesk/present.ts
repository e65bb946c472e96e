import type { FormRow } from './repo.ts';
import type { RequestType } from './schemas.ts';
import { fieldName, type FormVocabulary } from './vocabulary.ts';

/** A form as the API shows it; `position` is its index in the project's portal order (repo.projectForms). */
export function presentForm(form: FormRow, position: number, vocabulary: FormVocabulary): RequestType {
  return {
    id: form.id,
    key: form.key,
    name: form.name,
    description: form.description,
    help_text: form.help_text,
    portal_group: form.portal_group,
    hidden: form.hidden,
    submission: form.submission,
    ticket_type: form.ticket_type,
    position,
    archived: form.archived,
    fields: form.fields.map((f) => ({
      field: f.field,
      name: fieldName(vocabulary, f.field),
      displayed: f.displayed,
      required: f.required,
      label: f.label,
    })),
  };
}
