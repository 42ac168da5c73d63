/**
 * A statement as CSV (RFC 4180): comma-separated, CRLF line ends, a field with a comma, a
 * quote or a line break in double quotes (its quotes doubled), UTF-8. Every text field that
 * a spreadsheet would take for a formula (`=`, `+`, `-`, `@`, a tab or a carriage return
 * first) gets a leading `'` (OWASP's advice on CSV injection); numbers are written as
 * numbers. Streamed a line at a time.
 */
import { Readable } from 'node:stream';
import { bankLocalTime, bankName, bankTimeZone } from '../accounts/bankCalendar.ts';
import type { MonthStatement } from './monthStatement.ts';

const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

/** One text field: defused when it could start a formula, quoted when RFC 4180 needs it. */
export function csvText(value: string | null): string {
  const text = value ?? '';
  const defused = formulaStart.test(text) ? `'${text}` : text;
  return needsQuotes.test(defused) ? `"${defused.replaceAll('"', '""')}"` : defused;
}

/** One record of text fields and numbers, with its CRLF. */
function record(...fields: Array<string | bigint | null>): string {
  return `${fields.map((field) => (typeof field === 'bigint' ? field.toString() : csvText(field))).join(',')}\r\n`;
}

/** The lines of the statement, one at a time. */
function* statementLines(statement: MonthStatement): Generator<string> {
  yield record('Bank', bankName);
  yield record('Account', statement.accountName, statement.accountId);
  yield record('Month', statement.month, bankTimeZone);
  yield record('Opening balance', statement.currency, statement.openingMinor);
  yield '\r\n';
  yield record('Date', 'Kind', 'Description', 'Counterparty', 'Amount (minor)', 'Balance after (minor)');
  for (const row of statement.movements) {
    yield record(bankLocalTime(new Date(row.createdAt)), row.kind, row.description, row.counterparty, BigInt(row.amountMinor), BigInt(row.balanceAfterMinor));
  }
  yield '\r\n';
  yield record('Closing balance', statement.currency, statement.closingMinor);
}

/** The statement as a stream of CSV text. */
export function statementCsv(statement: MonthStatement): Readable {
  return Readable.from(statementLines(statement), { objectMode: false });
}
