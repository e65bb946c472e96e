// pg's own parameter writer, which the driver applies to every value: the array-parameter tests compare against it.
declare module 'pg/lib/utils.js' {
  export function prepareValue(value: unknown): unknown;
}
