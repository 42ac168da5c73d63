/**
 * Known devices (adr/0043; OWASP's "device cookies"): each successful sign-in hands the
 * client a device token, 256 random bits it presents at its next sign-in. The bank keeps
 * only the token's SHA-256, bound to its customer, with the address of the last sign-in
 * and its time; a token lives KNOWN_DEVICE_TTL_SECONDS (90 days) after its last use, and a
 * customer keeps at most KNOWN_DEVICES_PER_CUSTOMER (20) of them. signInLimits.ts exempts
 * a live, never-failed one from every delay others' failures could cause.
 */
import type { Config } from '../../config.ts';
import type { DataLayer } from '../../data/dataLayer.ts';
import { hashToken, newOpaqueToken } from './secrets.ts';

/** The numbers (config.ts). */
type KnownDeviceConfig = Pick<Config, 'knownDeviceTtlSeconds' | 'knownDevicesPerCustomer'>;

/** The stored form of a presented device token, or null when none was presented. */
export function deviceHashOf(deviceToken: string | undefined): string | null {
  return deviceToken === undefined ? null : hashToken(deviceToken);
}

/** The known devices over one data layer. */
export function knownDevices(data: DataLayer, config: KnownDeviceConfig) {
  const ttlSeconds = Math.round(config.knownDeviceTtlSeconds);
  const kept = Math.round(config.knownDevicesPerCustomer);

  return {
    /**
     * After a right password from `address`: the device token the client keeps. A live
     * token of this customer that it presented stays (its time and address renewed); any
     * other (none, unknown, expired, another customer's) is replaced by a new one.
     */
    async remember(userId: string, presented: string | undefined, address: string): Promise<string> {
      if (presented !== undefined) {
        const renewed = await data.write((db) => db.$executeRaw`
          UPDATE known_devices SET last_used_at = now(), address = ${address}::text
          WHERE token_hash = ${hashToken(presented)}::text AND user_id = ${userId}::uuid
            AND last_used_at > now() - ${ttlSeconds}::int * interval '1 second'`);
        if (renewed === 1) return presented;
      }
      const deviceToken = newOpaqueToken();
      await data.write((db) => db.$executeRaw`
        INSERT INTO known_devices (token_hash, user_id, address) VALUES (${hashToken(deviceToken)}::text, ${userId}::uuid, ${address}::text)`);
      // The customer's oldest devices beyond the bound, and their expired ones, go.
      await data.write((db) => db.$executeRaw`
        DELETE FROM known_devices WHERE user_id = ${userId}::uuid AND token_hash NOT IN (
          SELECT token_hash FROM known_devices
          WHERE user_id = ${userId}::uuid AND last_used_at > now() - ${ttlSeconds}::int * interval '1 second'
          ORDER BY last_used_at DESC LIMIT ${kept}::int)`);
      return deviceToken;
    },
  };
}
