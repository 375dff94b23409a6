import type { Tx } from "@/lib/db/client";
import type { Einvoice, EinvoiceWarning } from "@/lib/einvoice/model";

// Letters and digits only, lower case, accents dropped: "Müller GmbH & Co." -> "mullergmbhco".
const simple = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");

// The same party by name: equal, or one name inside the other ("Acme" and "Acme GmbH").
function sameName(a: string, b: string): boolean {
  const x = simple(a);
  const y = simple(b);
  if (!x || !y) return false;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short === long || (short.length >= 4 && long.includes(short));
}

// An import "as seller" (organization_role creditor) of an invoice whose seller is not the
// organization: a warning, unless the seller's name (BT-27) is the organization's or one of
// its bank details' account holders, or one of the invoice's payee accounts (BT-84) is an
// IBAN of its bank details. The organization keeps no VAT id, so BT-31 is not compared.
export async function sellerWarning(tx: Tx, input: { organizationId: string; invoice: Einvoice }): Promise<EinvoiceWarning | null> {
  const { organizationId, invoice } = input;
  const [organization, accounts] = await Promise.all([
    tx.organization.findUnique({ where: { id: organizationId }, select: { name: true } }),
    tx.paymentInstruction.findMany({ where: { organizationId }, select: { accountHolder: true, iban: true } }),
  ]);
  const names = [organization?.name ?? "", ...accounts.map((a) => a.accountHolder)];
  if (names.some((n) => sameName(n, invoice.seller.name))) return null;
  const ibans = new Set(accounts.map((a) => (a.iban ?? "").replace(/\s/g, "").toUpperCase()).filter(Boolean));
  if (invoice.payeeAccounts.some((a) => ibans.has(a))) return null;
  const seller = [
    invoice.seller.name && JSON.stringify(invoice.seller.name.slice(0, 200)),
    invoice.seller.vatId && `VAT id ${invoice.seller.vatId.slice(0, 40)}`,
  ]
    .filter(Boolean)
    .join(", ");
  return {
    rule: "seller",
    message: `imported as seller, but the seller (BT-27 ${seller || "unnamed"}) is not this organization ${JSON.stringify(organization?.name ?? "")}: neither its name nor an account holder of its bank details matches, and no payee account (BT-84) is one of its IBANs; if the organization is the buyer, import with organization_role debtor`,
  };
}
