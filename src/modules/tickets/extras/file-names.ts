/** The longest file name kept, in characters. */
const LONGEST_NAME = 200;

/**
 * A file name as kept and offered again: the last part of whatever path the browser sent, without
 * control or format characters, quotes, or the characters no file system takes; never empty, never
 * a dot-name that hides the file or climbs a folder.
 */
export function safeFileName(given: string): string {
  const last = given.split(/[/\\]/).pop() ?? '';
  const cleaned = last
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}"*:<>?|]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  const name = [...cleaned].slice(0, LONGEST_NAME).join('').trim();
  return name === '' ? 'attachment' : name;
}

/** Types a browser may show in place: pictures that cannot run a script. Never SVG or HTML. */
const SHOWN_IN_PLACE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export const shownInPlace = (contentType: string): boolean => SHOWN_IN_PLACE.has(contentType);

/** The type a browser declared, when it reads as one (`type/subtype`); anything else is plain bytes. */
export function declaredType(given: string): string {
  const type = given.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(type) ? type : 'application/octet-stream';
}

/**
 * The Content-Disposition of a download: `inline` only for the pictures above, `attachment`
 * otherwise; the name in ASCII for old clients and in full as RFC 6266/8187 says.
 */
export function contentDisposition(filename: string, contentType: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${shownInPlace(contentType) ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
