import { sql, type Tx } from "@/lib/db/client";
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
  const [r] = await sql<{ messages: number; documents: number; bytes: string; last_hour: number }>(
    tx,
    `SELECT m.messages, m.last_hour, d.documents, (m.bytes + d.bytes)::text AS bytes
     FROM (SELECT count(*)::int AS messages, coalesce(sum(octet_length(body)), 0)::bigint AS bytes,
             (count(*) FILTER (WHERE created_at > now() - interval '1 hour'))::int AS last_hour
           FROM obligation_messages WHERE organization_id = $1::uuid AND obligation_id = $2::uuid AND author_type = 'recipient') m,
          (SELECT count(*)::int AS documents, coalesce(sum(size_bytes), 0)::bigint AS bytes
           FROM documents WHERE organization_id = $1::uuid AND obligation_id = $2::uuid AND uploaded_by = 'recipient') d`,
    [input.organizationId, input.obligationId],
  );
  const e = env();
  if (input.messages && r.messages + input.messages > e.RECIPIENT_MAX_MESSAGES) {
    throw new AppError("invalid_state", `this link has reached its limit of ${e.RECIPIENT_MAX_MESSAGES} messages; contact the sender another way`);
  }
  if (input.documents && r.documents + input.documents > e.RECIPIENT_MAX_DOCUMENTS) {
    throw new AppError("invalid_state", `this link has reached its limit of ${e.RECIPIENT_MAX_DOCUMENTS} documents; contact the sender another way`);
  }
  if (BigInt(r.bytes) + BigInt(input.bytes) > BigInt(e.RECIPIENT_MAX_STORED_BYTES)) {
    throw new AppError("payload_too_large", `this link has reached its storage limit of ${e.RECIPIENT_MAX_STORED_BYTES} bytes for messages and documents`);
  }
  return { messagesLastHour: r.last_hour };
}
