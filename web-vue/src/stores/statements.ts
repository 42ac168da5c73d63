/**
 * Monthly statements (adr/0071): the months a visitor can ask for, and one statement as a
 * file, CSV or PDF, read through the API like any read (retried once). The file is handed
 * back as a Blob with the name the bank gave it, for the page to save.
 */
import { defineStore } from 'pinia';
import { useClients } from '../api/instance.ts';
import { settle, type Result } from '../api/result.ts';

/** The formats the bank makes. */
export type StatementFormat = 'csv' | 'pdf';

/** A statement to save. */
export interface StatementFile {
  blob: Blob;
  fileName: string;
}

/** How many months back the page offers (this one included). */
const MONTHS_OFFERED = 12;

/** The bank's time zone: its months begin at midnight there. */
const BANK_TIME_ZONE = 'Europe/Amsterdam';

/** `YYYY-MM` of the `count` months up to the bank's current one, newest first. */
export function recentMonths(now: Date = new Date(), count = MONTHS_OFFERED): string[] {
  const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: BANK_TIME_ZONE, year: 'numeric', month: '2-digit' }).format(now).split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, back) => {
    const index = year * 12 + (month - 1) - back;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}

/** The file name in a Content-Disposition header, or a fallback. */
function fileNameOf(disposition: string | null, fallback: string): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback;
}

export const useStatementsStore = defineStore('statements', () => {
  /** The statement of `month` of `accountId` as a file. */
  async function download(accountId: string, month: string, format: StatementFormat, signal?: AbortSignal): Promise<Result<StatementFile>> {
    let disposition: string | null = null;
    const { data, error } = await settle(async () => {
      const answer = await useClients().api.GET('/api/accounts/{accountId}/statements/{month}', {
        params: { path: { accountId, month }, query: { format } },
        parseAs: 'blob',
        signal,
      });
      disposition = answer.response.headers.get('Content-Disposition');
      return answer;
    });
    if (error) return { error };
    return { data: { blob: data as Blob, fileName: fileNameOf(disposition, `statement-${month}.${format}`) } };
  }

  return { download };
});
