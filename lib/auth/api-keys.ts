import type { Tx } from "@/lib/db/client";
import { randomToken, sha256Hex } from "@/lib/crypto";
import { newId } from "@/lib/ids";
import type { Scope } from "@/lib/auth/permissions";

// API keys are 256-bit random strings shown once; only their SHA-256 is stored (a key
// has full entropy, so a slow hash adds nothing but latency on every request).
export const API_KEY_PREFIX = "fos_";

export async function createApiKey(
  tx: Tx,
  input: { organizationId: string; scopes: readonly Scope[]; name?: string },
): Promise<{ id: string; apiKey: string }> {
  const apiKey = `${API_KEY_PREFIX}${randomToken(32)}`;
  const id = newId();
  await tx.apiKey.create({
    data: {
      id,
      organizationId: input.organizationId,
      name: input.name ?? "",
      prefix: apiKey.slice(0, 10),
      keyHash: sha256Hex(apiKey),
      scopes: [...input.scopes],
    },
  });
  return { id, apiKey };
}
