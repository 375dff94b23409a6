import { formatTimestamp } from "@/lib/dashboard/format";
import { Section } from "@/components/ui/section";
import { LinkPanel } from "@/components/obligations/link-panel";
import { DeliveryPreview } from "@/components/obligations/delivery-preview";
import type { ObligationDetail } from "@/components/obligations/detail/types";

// The hosted link and, for invoices, the draft of the delivery email.
// The link is a write capability: readers who may not change obligations see its state only.
export function LinkSections({
  o,
  locale,
  counterpartyEmail,
  expired,
  canWrite,
}: {
  o: ObligationDetail;
  locale: string;
  counterpartyEmail: string;
  expired: boolean;
  canWrite: boolean;
}) {
  const pr = o.payment_request;
  return (
    <>
      <Section title="Hosted link" id="link" description="The secure page where the counterparty sees this and responds">
        <LinkPanel
          status={o.status}
          revoked={pr.revoked}
          expired={expired}
          expiresLabel={formatTimestamp(pr.expires_at, locale)}
          counterpartyEmail={counterpartyEmail}
        />
      </Section>

      {o.obligation_type === "invoice" && (
        <Section title="Delivery email" id="delivery" description="Draft text for your own email; nothing is sent">
          {!canWrite ? (
            <p className="text-sm text-slate-600">The draft holds the link, which only members who can change obligations may see.</p>
          ) : pr.revoked || expired ? (
            <p className="text-sm text-slate-600">Reissue the link to prepare a draft.</p>
          ) : (
            <DeliveryPreview />
          )}
        </Section>
      )}
    </>
  );
}
