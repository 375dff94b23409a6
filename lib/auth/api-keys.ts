import type { Tx } from "@/lib/db/client";
import { randomToken } from "@/lib/crypto";
import { newId } from "@/lib/ids";
import type { Scope } from "@/lib/auth/permissions";
import { routedToken, routedTokenHash } from "@/lib/auth/token-routing";

// API keys are 256-bit random strings shown once; only their SHA-256 is stored (a key
// has full entropy, so a slow hash adds nothing but latency on every request). A key names its
// organization: `fos_<route>.<secret>` (lib/auth/token-routing.ts); keys of the old form
// (`fos_<secret>`) keep working.
export const API_KEY_PREFIX = "fos_";

export async function createApiKey(
  tx: Tx,
  input: { organizationId: string; scopes: readonly Scope[]; name?: string },
): Promise<{ id: string; apiKey: string }> {
  const secret = randomToken(32);
  const apiKey = routedToken(API_KEY_PREFIX, input.organizationId, secret);
  const id = newId();
  await tx.apiKey.create({
    data: {
      id,
      organizationId: input.organizationId,
      name: input.name ?? "",
      // Up to 6 characters of the secret, as before the route: the same start for an organization's keys.
      prefix: apiKey.slice(0, apiKey.length - secret.length + 6),
      keyHash: routedTokenHash(API_KEY_PREFIX, secret),
      scopes: [...input.scopes],
    },
  });
  return { id, apiKey };
}
