import { sql as raw } from "kysely";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { DocumentCondition } from "@/lib/obligations/detail-parts";

// What of an obligation the link holder may see. Decided here, in one place:
//  - the invoice record (the contract's fields), the payment terms with what is payable
//    and due now, the conditions, the message thread (issuer `post_message` is meant for
//    the recipient) and the documents below;
//  - documents: the recipient's own uploads and the issuer's `invoice`, `supporting` and
//    `payment_evidence` documents. Issuer `bank_observation` documents (bank statements,
//    which may show other customers' payments) are issuer-only: not listed, 404 on download;
//  - never: the audit trail (actor ids, API keys, internal details), payments and their
//    allocations, other obligations, the hosted URL.
export const RECIPIENT_VISIBLE_DOCUMENTS: Prisma.DocumentWhereInput = {
  OR: [{ uploadedBy: "recipient" }, { kind: { not: "bank_observation" } }],
};

// The same rule as a condition on a document `d` (the recipient's invoice reads its
// documents in one statement with the obligation's other parts).
export const recipientMaySee: DocumentCondition = (eb) =>
  eb.or([eb("d.uploaded_by", "=", raw.lit("recipient")), eb("d.kind", "<>", raw.lit("bank_observation"))]);
