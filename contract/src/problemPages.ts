/**
 * The pages a problem `type` names (RFC 9457 §3.1: dereferenced, it gives human-readable
 * documentation): `/docs/problems` is the error reference (code → status → meaning →
 * retryable → what to do), `/docs/problems/<code>` one code's page. Both are made from the
 * one catalog (errors.ts) and its reference (errorReference.ts), so they cannot drift from
 * what the servers send; the BFF serves them beside the docs and the API serves the same
 * pages, so a `type` resolves on whichever host answered. Plain HTML, no script, no style.
 */
import { errorCatalog, problemSlug, problemType, type ErrorCode } from './errors.ts';
import { errorReference, stepUpSends } from './errorReference.ts';

const codes = Object.keys(errorCatalog) as ErrorCode[];
const bySlug = new Map(codes.map((code) => [problemSlug(code), code]));

/** Text as HTML, with `backticks` as <code>. */
function html(text: string): string {
  const escaped = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
  return escaped.replace(/`([^`]+)`/g, '<code>$1</code>');
}

function page(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${html(title)}</title></head>\n<body>\n${body}\n</body></html>\n`;
}

/** The error reference: every code, in the catalog's order. */
export function errorReferencePage(): string {
  const rows = codes.map((code) => {
    const { status } = errorCatalog[code];
    const { meaning, retryable, action } = errorReference[code];
    return `<tr><td><a href="${problemType(code)}"><code>${code}</code></a></td><td>${status}</td><td>${html(meaning)}</td><td>${retryable ? 'yes' : 'no'}</td><td>${html(action)}</td></tr>`;
  });
  return page(
    'Tidewater API: error reference',
    `<h1>Error reference</h1>\n<p>Every error is <code>application/problem+json</code> with an <code>errorCode</code> from this table; its <code>type</code> is the link of its row. <em>Retryable</em>: the same request (on a money send, the same Idempotency-Key) may succeed later, after <code>Retry-After</code> when the answer has one. <a href="/docs">The API docs</a>.</p>\n<p>${html(stepUpSends)}</p>\n<table>\n<thead><tr><th>errorCode</th><th>status</th><th>meaning</th><th>retryable</th><th>what to do</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`,
  );
}

/** The page of the code whose slug is `slug` (`insufficient-funds`); undefined for none. */
export function problemPage(slug: string): string | undefined {
  const code = bySlug.get(slug);
  if (!code) return undefined;
  const { status, title } = errorCatalog[code];
  const { meaning, retryable, action } = errorReference[code];
  return page(
    `${code}: ${title}`,
    `<h1><code>${code}</code>: ${html(title)}</h1>\n<dl>\n<dt>type</dt><dd><code>${problemType(code)}</code></dd>\n<dt>status</dt><dd>${status}</dd>\n<dt>meaning</dt><dd>${html(meaning)}</dd>\n<dt>retryable</dt><dd>${retryable ? 'yes' : 'no'}</dd>\n<dt>what to do</dt><dd>${html(action)}</dd>\n</dl>\n<p>${html(stepUpSends)}</p>\n<p><a href="/docs/problems">Every error code</a> · <a href="/docs">The API docs</a></p>`,
  );
}
