/**
 * getStatement: a month of one of the customer's accounts as a file, CSV or PDF
 * (adr/0071). The ledger is read first, whole, in one statement (an outage is a clean 503
 * before any byte of the file); then the file is made and streamed out. Another
 * customer's account is 404, like one that does not exist; a month that has not begun in
 * the bank's time zone is 400.
 */
import type { Handlers } from '../../contract/operations.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { DomainDeps } from '../deps.ts';
import { currentMonth, isLaterMonth, parseMonth } from '../accounts/bankCalendar.ts';
import { readMonthStatement } from './monthStatement.ts';
import { statementCsv } from './statementCsv.ts';
import { statementPdf } from './statementPdf.ts';

const contentTypes = { csv: 'text/csv; charset=utf-8; header=present', pdf: 'application/pdf' } as const;

/** A file name's safe part of an account's name (ASCII, for Content-Disposition): `Épargne d'été!` → `epargne-d-ete`. */
export function fileNameOf(accountName: string): string {
  const ascii = accountName.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'account';
}

/** The handler of statements. */
export function statementHandlers({ data }: DomainDeps): Pick<Handlers, 'getStatement'> {
  return {
    async getStatement({ caller, path, query }) {
      const month = parseMonth(path.month);
      if (isLaterMonth(month, currentMonth())) {
        throw new ApiProblem('VALIDATION_FAILED', `${path.month} has not begun yet (Europe/Amsterdam); a statement is of a month that has.`, {
          errors: [{ parameter: 'month', detail: 'must not be after the current month' }],
        });
      }
      const statement = await readMonthStatement(data.readDb(), caller.userId, path.accountId, month);
      if (!statement) throw new ApiProblem('ACCOUNT_NOT_FOUND', 'No account of yours has this id.');
      const format = query.format;
      return {
        status: 200,
        headers: {
          'Content-Type': contentTypes[format],
          'Content-Disposition': `attachment; filename="tidewater-${fileNameOf(statement.accountName)}-${statement.month}.${format}"`,
        },
        body: format === 'csv' ? statementCsv(statement) : statementPdf(statement),
      };
    },
  };
}
