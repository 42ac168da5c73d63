/**
 * How the SPA gets its end of the timeout chain at run time: the BFF that serves the page
 * writes the SPA's numbers, as it resolved them (SPA_ABORT_MS and the others of the `spa`
 * tier in timeoutChain.ts), into index.html as a JSON data block, and the SPA reads them
 * once at start, falling back to the table's defaults for any number not served (the vite
 * dev server, a unit test). So one variable on the BFF changes the SPA's abort, and the
 * BFF's start-up check has seen the same number. A data block is not a script: the CSP's
 * `script-src` does not apply to it.
 */
import { chainDefaults, chainNamesOf, type TierNames } from './timeoutChain.ts';

/** The id of the data block. */
export const servedTimingsId = 'tidewater-timings';

/** The SPA's numbers, by their names in the table. */
export type SpaTimings = { readonly [K in TierNames<'spa'>]: number };

const spaNames = chainNamesOf('spa') as Array<keyof SpaTimings>;

/** The SPA's numbers out of a resolved chain (or any record holding them). */
export function spaTimingsOf(values: SpaTimings): SpaTimings {
  return Object.fromEntries(spaNames.map((name) => [name, values[name]])) as unknown as SpaTimings;
}

/** `html` with the data block added before its first script (else before `</head>`, else at its end), so it is there before any script runs. */
export function withServedTimings(html: string, timings: SpaTimings): string {
  // `<` escaped, so no value can end the element early.
  const block = `<script type="application/json" id="${servedTimingsId}">${JSON.stringify(spaTimingsOf(timings)).replaceAll('<', '\\u003c')}</script>`;
  for (const marker of ['<script', '</head>']) {
    const at = html.indexOf(marker);
    if (at !== -1) return html.slice(0, at) + block + html.slice(at);
  }
  return html + block;
}

/** What the SPA reads the block from (a Document, or a stand-in in tests). */
export interface TimingsSource {
  getElementById(id: string): { textContent: string | null } | null;
}

/**
 * The SPA's numbers: each as served when it is a positive finite number, else its default.
 * A missing or unreadable block gives the defaults.
 */
export function readServedTimings(source: TimingsSource | undefined): SpaTimings {
  let served: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(source?.getElementById(servedTimingsId)?.textContent ?? '{}');
    if (typeof parsed === 'object' && parsed !== null) served = parsed as Record<string, unknown>;
  } catch {
    // an unreadable block: the defaults
  }
  return Object.fromEntries(
    spaNames.map((name) => {
      const value = served[name];
      return [name, typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : chainDefaults[name]];
    }),
  ) as unknown as SpaTimings;
}
