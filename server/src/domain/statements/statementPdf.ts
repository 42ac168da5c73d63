/**
 * A statement as one A4 PDF, made by pdfkit (adr/0071): the bank's name, the account's
 * name and id, the month and its time zone, the opening balance, a table of every
 * movement (date, description, amount, balance after) and the closing balance. pdfkit's
 * document is itself a readable stream: its bytes go out as the pages are made.
 *
 * The standard Helvetica font writes WinAnsi only, so a character outside it (an emoji,
 * Greek) is printed as `?` rather than as a wrong glyph; the CSV keeps the text whole.
 */
import PDFDocument from 'pdfkit';
import type { Readable } from 'node:stream';
import { bankLocalTime, bankName, bankTimeZone } from '../accounts/bankCalendar.ts';
import type { MonthStatement } from './monthStatement.ts';

const winAnsiBeyondLatin1 = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text as Helvetica can print it: WinAnsi kept, anything else `?`. */
export function printable(text: string): string {
  return [...text].map((c) => ((c >= ' ' && c <= '~') || (c >= '\u00a0' && c <= '\u00ff') || winAnsiBeyondLatin1.has(c) ? c : '?')).join('');
}

/** Minor units as an amount: `-1234567n` → `-12,345.67`. */
export function formatMinor(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString().padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${whole}.${digits.slice(-2)}`;
}

const columns = { date: 50, description: 170, amount: 390, balance: 470 } as const;
const amountWidth = 75;

/** The statement as a stream of PDF bytes. */
export function statementPdf(statement: MonthStatement): Readable {
  const title = `${bankName} statement: ${statement.accountName}, ${statement.month}`;
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: printable(title), Author: bankName } });
  const money = (minor: bigint) => `${statement.currency} ${formatMinor(minor)}`;

  doc.font('Helvetica-Bold').fontSize(18).text(bankName);
  doc.font('Helvetica').fontSize(11).moveDown(0.5);
  doc.text(`Account: ${printable(statement.accountName)}`);
  doc.fontSize(9).fillColor('#444444').text(`Account id: ${statement.accountId}`).fillColor('black').fontSize(11);
  doc.text(`Statement for ${statement.month} (times in ${bankTimeZone})`);
  doc.moveDown().font('Helvetica-Bold').text(`Opening balance: ${money(statement.openingMinor)}`).font('Helvetica').moveDown();

  const row = (date: string, description: string, amount: string, balance: string) => {
    if (doc.y > doc.page.height - 90) doc.addPage();
    const y = doc.y;
    doc.text(date, columns.date, y, { width: 115 });
    doc.text(description, columns.description, y, { width: 210 });
    const below = doc.y;
    doc.text(amount, columns.amount, y, { width: amountWidth, align: 'right' });
    doc.text(balance, columns.balance, y, { width: amountWidth, align: 'right' });
    doc.x = columns.date;
    doc.y = Math.max(below, doc.y) + 4;
  };
  doc.fontSize(9).font('Helvetica-Bold');
  row('Date', 'Description', 'Amount', 'Balance after');
  doc.font('Helvetica');
  if (statement.movements.length === 0) doc.text('No movements this month.', columns.date);
  for (const movement of statement.movements) {
    const words = [movement.kind.replace('_', ' '), movement.description, movement.counterparty].filter(Boolean).join(' · ');
    row(bankLocalTime(new Date(movement.createdAt)).slice(0, 16).replace('T', ' '), printable(words), formatMinor(BigInt(movement.amountMinor)), formatMinor(BigInt(movement.balanceAfterMinor)));
  }
  doc.moveDown().fontSize(11).font('Helvetica-Bold').text(`Closing balance: ${money(statement.closingMinor)}`, columns.date);
  doc.end();
  return doc;
}
