import { Type, type Static } from 'typebox';
import { Nullable, shared, StringEnum, Uuid } from './schema-kit.ts';

/** Spec 2.3: people never carry an email address. */
export const Person = shared('Person', Type.Object({ id: Uuid, name: Type.String() }));
export type Person = Static<typeof Person>;

export const Reference = shared('Reference', Type.Object({ id: Uuid, name: Type.String() }));
export type Reference = Static<typeof Reference>;

/** Spec 2.2: how a text was stored; everything written through the API is Markdown. */
export const RichTextFormat = StringEnum(['markdown', 'imported_wiki', 'html', 'plain', 'imported_storage']);

export const RichText = shared(
  'RichText',
  Type.Object({
    format: RichTextFormat,
    text: Type.String({ description: 'the text as stored' }),
    markdown: Type.Optional(Type.String({ description: 'only for `imported_wiki`: the Markdown an edit starts from' })),
  }),
);
export type RichText = Static<typeof RichText>;

export const StatusCategory = StringEnum(['todo', 'in_progress', 'done']);

export const Status = shared('Status', Type.Object({ name: Type.String(), category: Nullable(StatusCategory) }));
export type Status = Static<typeof Status>;

export const Transition = shared('Transition', Type.Object({ id: Uuid, name: Type.String(), to_status: Status }));

export const ErrorResponse = shared(
  'Error',
  Type.Object({
    error: Type.Object({
      code: Type.String({ description: 'for programs; unknown codes are treated by their HTTP status' }),
      message: Type.String({ description: 'for people' }),
    }),
  }),
);
