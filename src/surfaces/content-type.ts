/** Whether a Content-Type names no charset, or UTF-8: JSON is UTF-8 (RFC 8259 §8.1), and a body in another charset would be read wrongly. */
export function isUtf8(contentType: string): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1];
  return charset === undefined || /^utf-?8$/i.test(charset);
}
