import pg from 'pg';

const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;
const DATE = 1082;
const INT8 = 20;
const NUMERIC = 1700;

const identity = (value: string): string => value;

/**
 * Type parsers for one pool: timestamps stay text so microseconds survive (a JS Date keeps
 * milliseconds only); 64-bit counts become numbers (counts never reach 2^53).
 */
export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case TIMESTAMPTZ:
      case TIMESTAMP:
      case DATE:
      case NUMERIC:
        return identity;
      case INT8:
        return (value: string) => Number(value);
      default:
        return pg.types.getTypeParser(oid, format);
    }
  },
} as pg.CustomTypesConfig;
