/** Text made safe in HTML and XML: as element content and as a double-quoted attribute's value. */
export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * `text` with its character references read: numeric ones, and the named ones of `named` (the few a serialiser
 * writes); any other named one is given to `unknown`, and what it returns takes its place.
 */
export function decodeReferences(text: string, named: Readonly<Record<string, string>>, unknown = (ref: string) => ref): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (ref, name: string) => {
    if (name[0] !== '#') return named[name] ?? unknown(ref);
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ref;
  });
}
