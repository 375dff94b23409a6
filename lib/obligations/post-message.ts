import type { Tx } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { newId } from "@/lib/ids";
import type { TMutationResult } from "@/lib/schemas/obligations";
import { mutateObligation } from "@/lib/obligations/mutate-obligation";
import type { LoadedObligation } from "@/lib/obligations/load";

export type PostMessageInput = {
  organizationId: string;
  obligationId: string;
  expectedVersion: number;
  principal: Principal;
  obligationType?: string;
  authorType: "issuer" | "recipient";
  authorName: (o: LoadedObligation) => Promise<string> | string;
  message: string;
  // Runs under the obligation's lock before the message is written (the payer's bounds).
  guard?: (o: LoadedObligation) => Promise<void>;
  webhooks?: () => boolean; // see mutateObligation
};

// The `post_message` action of both sides: a message in the obligation's thread, version
// +1 and `obligation.message_posted`.
export async function postMessage(tx: Tx, input: PostMessageInput): Promise<TMutationResult> {
  const { authorType, authorName, message, guard, ...base } = input;
  const messageId = newId();
  return mutateObligation(tx, {
    ...base,
    eventType: "obligation.message_posted",
    apply: async (o) => {
      await guard?.(o);
      await tx.obligationMessage.create({
        data: { id: messageId, organizationId: o.organizationId, obligationId: o.id, authorType, authorName: await authorName(o), body: message },
      });
    },
    detail: { message_id: messageId, author_type: authorType, body: message },
  });
}
