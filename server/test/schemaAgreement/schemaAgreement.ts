/**
 * Compares Prisma's view of the schema (its DMMF, read from schema.prisma) with what
 * the migrations really built (information_schema). Both directions: a column only one
 * side knows, or the same column with another type or nullability, is a disagreement.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import wasm from '@prisma/prisma-schema-wasm';

/** One column as both sides can describe it. */
export interface ColumnShape {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
}

const schemaPath = fileURLToPath(new URL('../../prisma/schema.prisma', import.meta.url));

interface DmmfField {
  name: string;
  dbName?: string;
  kind: string;
  type: string;
  isRequired: boolean;
  nativeType?: [string, string[]] | null;
}

/** Prisma scalar (and native) types as PostgreSQL names them in information_schema. */
function postgresType(field: DmmfField): string {
  const native = field.nativeType?.[0];
  if (native === 'Uuid') return 'uuid';
  if (native === 'Timestamptz') return 'timestamp with time zone';
  const byScalar: Record<string, string> = {
    String: 'text',
    Int: 'integer',
    BigInt: 'bigint',
    Boolean: 'boolean',
    DateTime: 'timestamp without time zone',
    Json: 'jsonb',
    Decimal: 'numeric',
  };
  return byScalar[field.type] ?? `unknown:${field.type}`;
}

/** Every scalar column schema.prisma declares. */
export function prismaColumns(schema = readFileSync(schemaPath, 'utf8')): ColumnShape[] {
  const dmmf = JSON.parse(wasm.get_dmmf(JSON.stringify({ prismaSchema: schema }))) as {
    datamodel: { models: Array<{ name: string; dbName: string | null; fields: DmmfField[] }> };
  };
  return dmmf.datamodel.models.flatMap((model) =>
    model.fields
      .filter((field) => field.kind === 'scalar')
      .map((field) => ({
        table: model.dbName ?? model.name,
        column: field.dbName ?? field.name,
        type: postgresType(field),
        nullable: !field.isRequired,
      })),
  );
}

/** The SQL that lists the migrated database's columns (the migrations' own table excluded). */
export const databaseColumnsSql = `
  SELECT table_name AS "table", column_name AS "column", data_type AS "type", is_nullable = 'YES' AS "nullable"
  FROM information_schema.columns
  WHERE table_schema = 'public' AND table_name <> 'pgmigrations'
  ORDER BY table_name, column_name`;

/** The differences between two column lists, as readable lines (empty when they agree). */
export function schemaDifferences(prisma: ColumnShape[], database: ColumnShape[]): string[] {
  const key = (c: ColumnShape) => `${c.table}.${c.column}`;
  const describe = (c: ColumnShape) => `${c.type}${c.nullable ? ' NULL' : ' NOT NULL'}`;
  const inDatabase = new Map(database.map((c) => [key(c), c]));
  const inPrisma = new Map(prisma.map((c) => [key(c), c]));
  const differences: string[] = [];
  for (const [name, column] of inPrisma) {
    const other = inDatabase.get(name);
    if (!other) differences.push(`${name}: in schema.prisma, not in the database`);
    else if (describe(column) !== describe(other)) differences.push(`${name}: schema.prisma ${describe(column)}, database ${describe(other)}`);
  }
  for (const name of inDatabase.keys()) if (!inPrisma.has(name)) differences.push(`${name}: in the database, not in schema.prisma`);
  return differences;
}
