/**
 * The relations a link between two tickets has, each as read from the ticket it starts from
 * (outward) and from the ticket it points at (inward). A link is one row of ticket_links, read
 * forwards from its source and backwards from its target (spec 2.3, Link).
 */
export const LINK_INWARD = {
  blocks: 'is blocked by',
  'relates to': 'relates to',
  duplicates: 'is duplicated by',
  clones: 'is cloned by',
} as const;

export type OutwardRelation = keyof typeof LINK_INWARD;

/** Every relation as one ticket reads it: the outward names, then the inward ones not already among them. */
export const LINK_RELATIONS = [
  'blocks',
  'is blocked by',
  'relates to',
  'duplicates',
  'is duplicated by',
  'clones',
  'is cloned by',
] as const;

export type LinkRelation = (typeof LINK_RELATIONS)[number];

/** A relation read from one ticket, as the row keeps it: which end this ticket is, and both names. */
export function linkRow(relation: LinkRelation): { thisIsSource: boolean; outward: OutwardRelation; inward: string } {
  if (relation in LINK_INWARD) {
    const outward = relation as OutwardRelation;
    return { thisIsSource: true, outward, inward: LINK_INWARD[outward] };
  }
  const outward = (Object.keys(LINK_INWARD) as OutwardRelation[]).find((o) => LINK_INWARD[o] === relation)!;
  return { thisIsSource: false, outward, inward: relation };
}

/** The same link read from its other ticket: `blocks` there is `is blocked by`, `relates to` stays. */
export function reverseRelation(relation: LinkRelation): LinkRelation {
  const row = linkRow(relation);
  return (row.thisIsSource ? row.inward : row.outward) as LinkRelation;
}
