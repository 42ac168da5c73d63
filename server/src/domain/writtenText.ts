/**
 * The code's half of the one rule for text a customer writes (spec schema `Text`,
 * adr/0012): the validator has already refused control characters, lone surrogates and
 * blank text; what is stored is the text without the spaces around it, so an answer never
 * carries what a request could not have sent.
 */

/** `text` as it is stored: without its surrounding spaces. */
export function writtenText(text: string): string {
  return text.trim();
}

/** An optional note as it is stored: trimmed, or null when absent. */
export function writtenNote(text: string | null | undefined): string | null {
  return text === undefined || text === null ? null : writtenText(text);
}
