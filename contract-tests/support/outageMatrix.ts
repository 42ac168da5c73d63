/**
 * The outage matrix as a table (operation × fault → status, ms), for people: printed at
 * the end of the run and written to contract-tests/.results/outage-matrix.md (ignored by
 * git: a run's result, not a source).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CellResult } from './outageCell.ts';

/** Where the table is written. */
export const resultsDir = fileURLToPath(new URL('../.results/', import.meta.url));

/** A column of a table: the healthy run, a fault, or a fault's recovery. */
interface Column {
  id: string;
  title: string;
}

/** One table of the report. */
export interface Table {
  title: string;
  columns: Column[];
}

function cellText(cell: CellResult | undefined): string {
  if (!cell) return '·';
  const mark = cell.failures.length ? '✗' : '✓';
  const { outcome } = cell;
  if (cell.logged) return `${mark} ${cell.logged.status} logged ${cell.logged.ms}ms`;
  if (outcome.kind === 'no-answer') return `${mark} ${outcome.reason === 'hung-up' ? 'hung up, no 499' : 'no answer'} ${outcome.ms}ms`;
  return `${mark} ${outcome.status} ${outcome.ms}ms`;
}

/** Collects cells by operation and column, and renders them. */
export class OutageMatrix {
  private readonly cells = new Map<string, CellResult>();
  readonly notes: string[] = [];

  private readonly operationIds: string[];
  private readonly tables: Table[];

  constructor(operationIds: string[], tables: Table[]) {
    this.operationIds = operationIds;
    this.tables = tables;
  }

  record(columnId: string, cell: CellResult): void {
    this.cells.set(`${columnId}|${cell.operationId}`, cell);
  }

  get(columnId: string, operationId: string): CellResult | undefined {
    return this.cells.get(`${columnId}|${operationId}`);
  }

  private table({ title, columns }: Table): string[] {
    const header = `| operation | ${columns.map((c) => c.title).join(' | ')} |`;
    const rule = `|---|${columns.map(() => '---').join('|')}|`;
    const rows = this.operationIds.map((id) => `| ${id} | ${columns.map((c) => cellText(this.get(c.id, id))).join(' | ')} |`);
    return [`## ${title}`, '', header, rule, ...rows, ''];
  }

  /** The tables, then every failing cell with its reasons, then the notes. */
  render(): string {
    const failing = [...this.cells.entries()]
      .filter(([, cell]) => cell.failures.length)
      .map(([key, cell]) => `- **${key.replace('|', ' × ')}** (trace ${cell.traceId}): ${cell.failures.join('; ')}`);
    const notes = [...new Set([...this.notes, ...[...this.cells.values()].flatMap((c) => c.notes.map((n) => `${c.operationId}: ${n}`))])];
    return [
      '# Outage matrix',
      '',
      '✓ keeps its contract · ✗ breaks it · ms from sending to the last byte (hang-up: to the 499 log line)',
      '',
      ...this.tables.flatMap((table) => this.table(table)),
      `## Failing cells (${failing.length})`,
      '',
      ...(failing.length ? failing : ['none']),
      '',
      '## Notes',
      '',
      ...(notes.length ? notes.map((n) => `- ${n}`) : ['none']),
      '',
    ].join('\n');
  }

  /** Writes the table to `.results/outage-matrix.md`; answers its path. */
  write(): string {
    mkdirSync(resultsDir, { recursive: true });
    const path = `${resultsDir}outage-matrix.md`;
    writeFileSync(path, this.render());
    return path;
  }
}
