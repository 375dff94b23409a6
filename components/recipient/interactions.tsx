"use client";

import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { AcknowledgeCard, ReportPaymentCard, ShareDateCard, type Act } from "@/components/recipient/action-forms";
import { Documents, type Upload } from "@/components/recipient/documents";
import { DisputeCard, PromiseCard } from "@/components/recipient/dispute-promise";
import { Messages, type LoadEarlier } from "@/components/recipient/messages";
import { amounts } from "@/components/recipient/present";

// Everything below "how to pay": the forms, documents and messages. A chunk of its own,
// fetched while the link is being exchanged, so the first paint needs only the overview.
export default function Interactions({
  inv,
  act,
  upload,
  hrefOf,
  earlier,
}: {
  inv: TRecipientInvoice;
  act: Act;
  upload: Upload;
  hrefOf: (id: string) => string;
  earlier: LoadEarlier;
}) {
  const paid = inv.status === "RECONCILED";
  return (
    <>
      {!paid && (
        <div className="space-y-5 print:hidden">
          <AcknowledgeCard inv={inv} act={act} />
          <ShareDateCard key={`date-${inv.version}`} inv={inv} act={act} />
          <ReportPaymentCard inv={inv} act={act} suggestedMinor={amounts(inv).toPayNow} />
          <PromiseCard key={`promise-${inv.version}`} inv={inv} act={act} outstandingMinor={amounts(inv).outstanding} />
          <DisputeCard inv={inv} act={act} />
        </div>
      )}
      <div className="space-y-5 print:hidden">
        <Documents inv={inv} hrefOf={hrefOf} upload={upload} canUpload={!paid} />
        <Messages inv={inv} act={act} earlier={earlier} />
      </div>
    </>
  );
}
