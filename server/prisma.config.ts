import { defineConfig } from 'prisma/config';

/** Prisma CLI config: only `prisma generate` runs here; migrations are SQL files (see adr/0003). */
export default defineConfig({
  schema: 'prisma/schema.prisma',
});
