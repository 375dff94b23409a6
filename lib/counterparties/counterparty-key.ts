import { createHash } from "node:crypto";
import { normalizeName } from "@/lib/reconciliation/text";

// A counterparty is derived, never stored (registration stays one statement): the debtor
// email lower-cased, else the debtor name normalized as payer names are (§3). Its id is a
// UUIDv5-style digest of organization + key, so the same grouping key always has the same
// id and another organization's id never matches. "" when the obligation names no debtor.
export function counterpartyKey(organizationId: string, debtorEmail: string, debtorName: string): { key: string; id: string } | undefined {
  const email = debtorEmail.trim().toLowerCase();
  const name = email === "" ? normalizeName(debtorName) : "";
  const key = email !== "" ? `email:${email}` : name !== "" ? `name:${name}` : "";
  if (key === "") return undefined;
  const h = createHash("sha1").update(`counterparty:${organizationId.toLowerCase()}:${key}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return { key, id: `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}` };
}
