import { db, transaction, type Tx } from "@/lib/db/client";
import type { IssuerPrincipal, RecipientPrincipal } from "@/lib/auth/principal";
import type { TRegisterObligation } from "@/lib/schemas/obligations";
import { registerObligation } from "@/lib/obligations/register-obligation";
import { applyIssuerAction } from "@/lib/obligations/apply-issuer-action";
import { satisfyCondition } from "@/lib/obligations/satisfy-condition";
import { mutateObligation } from "@/lib/obligations/mutate-obligation";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { toDate } from "@/lib/schemas/common";
import { DEPOSIT_AND_ACCEPTANCE_TERMS } from "@/lib/operations/obligation-examples";

// Sample obligations for the demo organization, built with the same domain functions the
// API uses (so every one has its payment request, audit trail and consistent versions):
//  1. an invoice just captured,
//  2. an invoice sent, with an expected payment date and a message,
//  3. a milestone contract: 30 % deposit now, 70 % 30 days after acceptance (accepted),
//  4. a retention payment condition still waiting on an inspection,
//  5. rent the organization owes (organization_role debtor), due soon,
//  6. an invoice whose recipient reported a payment (PAYMENT_CLAIMED).
const day = (offset: number): string => {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

export async function seedDemoObligations(organizationId: string, userId: string): Promise<void> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { email: true, name: true } });
  const org = await db().organization.findUnique({ where: { id: organizationId }, select: { name: true } });
  const principal: IssuerPrincipal = {
    kind: "user",
    organizationId,
    organizationName: org?.name ?? "",
    userId,
    sessionId: "",
    role: "owner",
    email: user?.email ?? "",
    name: user?.name ?? "",
  };
  const base = { organizationId, principal };
  const register = (tx: Tx, body: TRegisterObligation) => registerObligation(tx, { ...base, body });

  // 1. captured invoice
  await transaction((tx) =>
    createInvoice(tx, {
      ...base,
      body: {
        invoice_number: "INV-2026-1001",
        amount_minor: "480000",
        currency: "EUR",
        due_date: day(21),
        recipient: { name: "Northwind Traders", email: "ap@northwind.example" },
        description: "Consulting, November: 32 hours at 150.00 EUR",
      },
    }),
  );

  // 2. sent invoice with an expected payment date and a message
  await transaction(async (tx) => {
    const r = await createInvoice(tx, {
      ...base,
      body: {
        invoice_number: "INV-2026-0998",
        amount_minor: "129900",
        currency: "USD",
        due_date: day(7),
        recipient: { name: "Contoso Ltd", email: "billing@contoso.example" },
        description: "Annual support plan",
      },
    });
    const id = r.invoice.id;
    let v = r.invoice.version;
    v = (await applyIssuerAction(tx, { ...base, obligationId: id, action: { action: "mark_sent", expected_version: v } })).invoice.version;
    v = (
      await applyIssuerAction(tx, {
        ...base,
        obligationId: id,
        action: { action: "set_expected_payment_date", expected_version: v, expected_payment_date: day(5) },
      })
    ).invoice.version;
    await applyIssuerAction(tx, {
      ...base,
      obligationId: id,
      action: { action: "post_message", expected_version: v, message: "Thanks for the quick confirmation. Our bank details are on the invoice PDF." },
    });
  });

  // 3. milestone contract with an accepted milestone
  await transaction(async (tx) => {
    const r = await register(tx, {
      obligation_type: "contractual",
      organization_role: "creditor",
      external_reference: { namespace: "crm", id: "DEAL-5521" },
      debtor: { name: "Fabrikam Logistics", email: "finance@fabrikam.example" },
      amount_minor: "2500000",
      currency: "EUR",
      deadline: day(60),
      business_context: { invoice_number: "CTR-2026-014", description: "Warehouse fit-out, phase 1" },
      label: "Fit-out phase 1",
      conditions: [{ key: "acceptance", label: "Customer acceptance of phase 1", external_reference: { namespace: "pm", id: "MS-14" } }],
      payment_terms: DEPOSIT_AND_ACCEPTANCE_TERMS,
    });
    const acceptance = r.invoice.conditions[0];
    const v = (await applyIssuerAction(tx, { ...base, obligationId: r.invoice.id, action: { action: "mark_sent", expected_version: r.invoice.version } }))
      .invoice.version;
    await satisfyCondition(tx, {
      ...base,
      obligationId: r.invoice.id,
      conditionId: acceptance.id,
      body: { expected_version: v, satisfied_on: day(0), evidence_reference: "ACCEPT-14", source: "signed acceptance protocol" },
    });
  });

  // 4. retention waiting on an inspection
  await transaction((tx) =>
    register(tx, {
      obligation_type: "payment_condition",
      external_reference: { namespace: "crm", id: "DEAL-5521-RET" },
      debtor: { name: "Fabrikam Logistics", email: "finance@fabrikam.example" },
      amount_minor: "125000",
      currency: "EUR",
      deadline: day(120),
      business_context: { invoice_number: "CTR-2026-014-R", description: "5 % retention, released after the final inspection" },
      label: "Retention",
      conditions: [{ key: "inspection", label: "Final inspection passed" }],
      payment_terms: [
        {
          sequence: 1,
          amount_type: "fixed",
          fixed_amount_minor: "125000",
          trigger_type: "condition_satisfied",
          condition_key: "inspection",
          due_rule: "days_after_trigger",
          due_days: 10,
        },
      ],
    }),
  );

  // 5. rent the organization owes
  await transaction((tx) =>
    register(tx, {
      obligation_type: "contractual",
      organization_role: "debtor",
      external_reference: { namespace: "lease", id: "LEASE-7-DEC" },
      creditor: { name: "Harbour Properties", email: "rent@harbour.example" },
      amount_minor: "320000",
      currency: "GBP",
      deadline: day(3),
      business_context: { invoice_number: "RENT-DEC", description: "Office rent, unit 7" },
      label: "Office rent",
    }),
  );

  // 6. the recipient reported a payment (as the recipient's report_payment action does)
  await transaction(async (tx) => {
    const r = await createInvoice(tx, {
      ...base,
      body: {
        invoice_number: "INV-2026-0990",
        amount_minor: "75000",
        currency: "CAD",
        due_date: day(-2),
        recipient: { name: "Tailspin Toys", email: "accounts@tailspin.example" },
        description: "Workshop, 1 day",
      },
    });
    const v = (await applyIssuerAction(tx, { ...base, obligationId: r.invoice.id, action: { action: "mark_sent", expected_version: r.invoice.version } }))
      .invoice.version;
    const recipient: RecipientPrincipal = {
      kind: "recipient",
      organizationId,
      // biome-ignore lint/style/noNonNullAssertion: registration always issues a payment request
      paymentRequestId: r.payment_request!.id,
      obligationId: r.invoice.id,
      sessionId: "",
    };
    await mutateObligation(tx, {
      organizationId,
      obligationId: r.invoice.id,
      expectedVersion: v,
      principal: recipient,
      eventType: "obligation.payment_reported",
      apply: () => ({
        status: "PAYMENT_CLAIMED",
        acknowledged: true,
        reportedPaymentDate: toDate(day(-1)),
        reportedAmountMinor: 75000n,
        reportedReference: "TT-REMIT-88",
      }),
      detail: { reported_payment_date: day(-1), amount_minor: "75000", reference: "TT-REMIT-88" },
    });
  });
}
