import { describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { migrateUp, pgliteMigrationClient } from '../../src/data/connections/index.ts';
import { databaseColumnsSql, prismaColumns, schemaDifferences, type ColumnShape } from './schemaAgreement.ts';

describe('schema.prisma and the migrated database', () => {
  it('agree on every table, column, type and nullability', async () => {
    const pglite = new PGlite();
    try {
      await migrateUp({ dbClient: pgliteMigrationClient(pglite) });
      const { rows } = await pglite.query<ColumnShape>(databaseColumnsSql);
      expect(rows.length).toBeGreaterThan(40);
      expect(schemaDifferences(prismaColumns(), rows)).toEqual([]);
    } finally {
      await pglite.close();
    }
  });

  it.each([
    ['a column only the database has', [], [{ table: 't', column: 'c', type: 'text', nullable: false }], ['t.c: in the database, not in schema.prisma']],
    ['a column only Prisma has', [{ table: 't', column: 'c', type: 'text', nullable: false }], [], ['t.c: in schema.prisma, not in the database']],
    ['another nullability', [{ table: 't', column: 'c', type: 'text', nullable: true }], [{ table: 't', column: 'c', type: 'text', nullable: false }], ['t.c: schema.prisma text NULL, database text NOT NULL']],
    ['another type', [{ table: 't', column: 'c', type: 'bigint', nullable: false }], [{ table: 't', column: 'c', type: 'integer', nullable: false }], ['t.c: schema.prisma bigint NOT NULL, database integer NOT NULL']],
  ])('reports %s', (_name, prisma, database, want) => {
    expect(schemaDifferences(prisma as ColumnShape[], database as ColumnShape[])).toEqual(want);
  });
});
