import { describe, expect, it } from 'vitest';
import { errorCatalog, problemSlug, type ErrorCode } from './errors.ts';
import { errorReference } from './errorReference.ts';
import { errorReferencePage, problemPage } from './problemPages.ts';

const codes = Object.keys(errorCatalog) as ErrorCode[];
/** The three sends that need a step-up and count toward the ceiling, as a page words them. */
const stepUpSends = ['A withdrawal', 'a transfer by handle', 'a transfer to an IBAN', 'daily ceiling'];

describe('the problem pages', () => {
  it.each(codes)('%s names every send that needs a step-up and counts toward the daily ceiling', (code) => {
    const page = problemPage(problemSlug(code))!;
    for (const words of stepUpSends) expect(page).toContain(words);
  });

  it('the reference names them too, once', () => {
    expect(errorReferencePage().split('a transfer by handle and a transfer to an IBAN each need a step-up').length).toBe(2);
  });

  it('DAILY_LIMIT_EXCEEDED counts all three sends, not external transfers alone', () => {
    expect(errorReference.DAILY_LIMIT_EXCEEDED.meaning).toMatch(/withdrawals, transfers by handle and transfers to an IBAN/);
  });
});
