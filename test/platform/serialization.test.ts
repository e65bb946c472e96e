import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { Nullable, StringEnum } from '../../src/core/schema-kit.ts';
import { serializerFor, withNullableTypeLists } from '../../src/core/serialization.ts';

// ADR 0044: answers are written by one compiled serializer per response schema. `Nullable(X)` is
// declared as `anyOf: [X, null]`, which fast-json-stringify resolves by validating the value with
// Ajv (a date-time's format parsed again for every card of a board); the serializer reads it as a
// type list instead, and writes the same JSON.

const Card = Type.Object({
  key: Type.String(),
  assignee: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  resolved_at: Nullable(Type.String({ format: 'date-time' })),
  estimate: Nullable(Type.Integer()),
  category: Nullable(StringEnum(['todo', 'done'])),
  labels: Type.Array(Type.String()),
});
/** A schema read as nested objects, to look into the rewritten one. */
interface Tree {
  [key: string]: Tree | undefined;
}

function at(tree: unknown, ...path: string[]): Tree {
  let node = tree as Tree;
  for (const key of path) {
    const next = node[key];
    if (next === undefined) throw new Error(`no ${path.join('.')}`);
    node = next;
  }
  return node;
}

const Board = Type.Object({ cards: Type.Array(Card), archived_at: Nullable(Type.String({ format: 'date-time' })) });

describe('a nullable field is serialized by its type, not validated again', () => {
  it('Nullable(X) of one plain type becomes a type list, nested ones included', () => {
    const rewritten = withNullableTypeLists(Board);
    expect(at(rewritten, 'properties', 'archived_at')).toEqual({ type: ['string', 'null'], format: 'date-time' });
    const card = at(rewritten, 'properties', 'cards', 'items', 'properties');
    expect(at(card, 'resolved_at')).toEqual({ type: ['string', 'null'], format: 'date-time' });
    expect(at(card, 'estimate')).toEqual({ type: ['integer', 'null'] });
    expect(at(card, 'category')).toEqual({ type: ['string', 'null'], enum: ['todo', 'done'] });
    expect(at(card, 'assignee', 'type')).toEqual(['object', 'null']);
    expect(at(card, 'assignee', 'properties')).toEqual({ id: { type: 'string' }, name: { type: 'string' } });
  });

  it('the declared schema keeps its anyOf: OpenAPI, MCP and request validation read that one', () => {
    withNullableTypeLists(Board);
    serializerFor(Board)({ cards: [], archived_at: null });
    expect(Board.properties.archived_at.anyOf).toHaveLength(2);
    expect(Card.properties.assignee.anyOf).toHaveLength(2);
  });

  it('writes what JSON.stringify writes, for values and for nulls', () => {
    const serialize = serializerFor(Board);
    const full = {
      cards: [
        {
          key: 'A-1',
          assignee: { id: 'm1', name: 'Lee' },
          resolved_at: '2026-01-02T03:04:05.600000Z',
          estimate: 3600,
          category: 'done',
          labels: ['x'],
        },
        { key: 'A-2', assignee: null, resolved_at: null, estimate: null, category: null, labels: [] },
      ],
      archived_at: null,
    };
    expect(serialize(full)).toBe(JSON.stringify(full));
  });

  it('leaves out what the schema does not declare, inside a nullable object too', () => {
    const serialize = serializerFor(Card);
    const card = {
      key: 'A-3',
      assignee: { id: 'm2', name: 'Kim', email: 'kim@example.test' },
      resolved_at: null,
      estimate: 0,
      category: 'todo',
      labels: [],
      secret: 1,
    };
    expect(JSON.parse(serialize(card))).toEqual({
      key: 'A-3',
      assignee: { id: 'm2', name: 'Kim' },
      resolved_at: null,
      estimate: 0,
      category: 'todo',
      labels: [],
    });
  });

  it('chooses the branch by type alone: a string is written as a string without its format checked', () => {
    // With the anyOf resolved by Ajv this value matched neither branch and the answer failed.
    const serialize = serializerFor(Type.Object({ at: Nullable(Type.String({ format: 'date-time' })) }));
    expect(serialize({ at: 'soon' })).toBe('{"at":"soon"}');
  });

  it('keeps an anyOf whose branches are not one plain type and null', () => {
    const Either = Type.Object({
      value: Type.Union([Type.String(), Type.Integer()]),
      maybe: Nullable(Type.Union([Type.String(), Type.Integer()])),
    });
    const rewritten = withNullableTypeLists(Either);
    expect(at(rewritten, 'properties', 'value', 'anyOf')).toHaveLength(2);
    expect(at(rewritten, 'properties', 'maybe', 'anyOf')).toHaveLength(2);
  });
});
