/**
 * `npm run pin:unblock -w server -- EMAIL`: the one way out of a PIN block (adr/0064; PSD2
 * RTS Art. 4(5)'s secure procedure). An operator runs it once the bank has confirmed the
 * customer out of band (a call back to the phone on file, an identity check), never on the
 * word of whoever holds the password: a password sign-in no longer lifts a lock or a block.
 * It ends the streak (its locks, its count of wrong PINs and its last lock's end). Reads
 * DATABASE_URL, else the embedded database in DATA_DIR (stop the API first). Exits 0 when
 * the customer's PIN is usable again, 1 when no customer has that email, 2 when it cannot
 * write to the database.
 */
import { loadConfig } from '../config.ts';
import { openDatabase, type Database } from '../data/connections/index.ts';

async function main(email: string | undefined): Promise<number> {
  if (!email) {
    console.error('pin:unblock: name the customer: npm run pin:unblock -w server -- EMAIL');
    return 2;
  }
  const config = loadConfig();
  let database: Database | undefined;
  try {
    database = await openDatabase(config);
    const lifted = await database.prisma.$executeRaw`
      UPDATE users SET pin_locks = 0, pin_failed_attempts = 0, pin_locked_until = NULL
      WHERE email = ${email.trim().toLowerCase()}::text`;
    if (lifted === 0) {
      console.error(`pin:unblock: no customer has the email ${email}`);
      return 1;
    }
    console.log(`pin:unblock: the PIN of ${email} is usable again (its streak of wrong PINs is ended)`);
    return 0;
  } catch (error) {
    console.error('pin:unblock: could not write to the database:', error instanceof Error ? error.message : error);
    return 2;
  } finally {
    await database?.close().catch(() => {});
  }
}

process.exitCode = await main(process.argv[2]);
