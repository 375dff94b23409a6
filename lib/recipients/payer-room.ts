import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { statement } from "@/lib/db/query";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

// The bounds of what a link holder may add to an obligation (docs/security.md, "Bounds"):
// at most RECIPIENT_MAX_MESSAGES messages and RECIPIENT_MAX_DOCUMENTS documents by the payer,
// and RECIPIENT_MAX_STORED_BYTES of both together, counted over every link the obligation
// has had. Called under the obligation's row lock (mutateObligation's `apply`), so
// concurrent additions cannot both pass. A count reached is 409 `invalid_state`, the bytes
// 413 `payload_too_large`. Returns how many payer messages the last hour holds (the webhook
// bound of payer messages).
export type PayerRoomInput = { organizationId: string; obligationId: string; messages?: number; documents?: number; bytes: number };

export async function assertPayerRoom(tx: Tx, input: PayerRoomInput): Promise<{ messagesLastHour: number }> {
  const [r] = await room.rows(tx, { organizationId: input.organizationId, obligationId: input.obligationId });
  const e = env();
  if (input.messages && r.messages + input.messages > e.RECIPIENT_MAX_MESSAGES) {
    throw new AppError("invalid_state", `this link has reached its limit of ${e.RECIPIENT_MAX_MESSAGES} messages; contact the sender another way`);
  }
  if (input.documents && r.documents + input.documents > e.RECIPIENT_MAX_DOCUMENTS) {
    throw new AppError("invalid_state", `this link has reached its limit of ${e.RECIPIENT_MAX_DOCUMENTS} documents; contact the sender another way`);
  }
  if (r.bytes + BigInt(input.bytes) > BigInt(e.RECIPIENT_MAX_STORED_BYTES)) {
    throw new AppError("payload_too_large", `this link has reached its storage limit of ${e.RECIPIENT_MAX_STORED_BYTES} bytes for messages and documents`);
  }
  return { messagesLastHour: r.last_hour };
}

// The payer's messages (with how many the last hour holds) and documents of the obligation,
// with the bytes of both, in one statement.
const room = statement((q, p: { organizationId: string; obligationId: string }) =>
  q
    .selectFrom([
      q
        .selectFrom("obligation_messages")
        .select([
          raw<number>`count(*)::int`.as("messages"),
          raw<bigint>`coalesce(sum(octet_length(body)), 0)::bigint`.as("bytes"),
          raw<number>`(count(*) FILTER (WHERE created_at > now() - interval '1 hour'))::int`.as("last_hour"),
        ])
        .where("organization_id", "=", p.organizationId)
        .where("obligation_id", "=", p.obligationId)
        .where("author_type", "=", raw.lit("recipient"))
        .as("m"),
      q
        .selectFrom("documents")
        .select([raw<number>`count(*)::int`.as("documents"), raw<bigint>`coalesce(sum(size_bytes), 0)::bigint`.as("bytes")])
        .where("organization_id", "=", p.organizationId)
        .where("obligation_id", "=", p.obligationId)
        .where("uploaded_by", "=", raw.lit("recipient"))
        .as("d"),
    ])
    .select(["m.messages", "m.last_hour", "d.documents", raw<bigint>`m.bytes + d.bytes`.as("bytes")]),
);
