import { defineOperation } from "@/lib/http/operation";
import { ZIdParams } from "@/lib/schemas/common";
import { ZInboxItem, ZInboxList, ZInboxQuery, type TInboxItem } from "@/lib/schemas/inbox";
import { OBL } from "@/lib/operations/obligation-examples";

const tags = ["Inbox"];

const ITEM = "4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d";
const EVENT = "5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e";

const exampleItem = (over: Partial<TInboxItem> = {}): TInboxItem => ({
  id: ITEM,
  kind: "dispute",
  obligation: {
    id: OBL,
    label: "Fit-out phase 1",
    invoice_number: "INV-2026-0042",
    debtor_name: "Northwind Traders",
    amount_minor: "1250000",
    currency: "EUR",
  },
  detail: { reason: "wrong_amount", message: "The deposit was agreed at 25 %, not 30 %.", amount_minor: "62500" },
  event_id: EVENT,
  created_at: "2026-11-28T09:12:00.000Z",
  read_at: null,
  ...over,
});

export const listInboxOp = defineOperation({
  operationId: "listInbox",
  method: "GET",
  path: "/inbox",
  summary: "What payers did through the hosted link (newest first)",
  description: [
    "One item per payer action: `message` (post_message), `payment_reported` (report_payment), `dispute`, `promise` (promise_payment) and `document` (an upload), each with the obligation it concerns, what the payer sent (`detail`) and `read_at` (null: unread).",
    "Filters: `kind` (one of the five) and `unread` (`true`: only unread; `false`: only read). Ordered by created_at, then id, both descending.",
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "obligations:read",
  query: ZInboxQuery,
  success: { status: 200, description: "A page of inbox items", schema: ZInboxList, example: { items: [exampleItem()], limit: 50, offset: 0 } },
});

export const markInboxItemReadOp = defineOperation({
  operationId: "markInboxItemRead",
  method: "POST",
  path: "/inbox/{id}/read",
  summary: "Mark an inbox item read",
  description: "Sets `read_at` (an item already read keeps its first `read_at`: calling again changes nothing). An id of another organization is 404. No body.",
  tags,
  auth: "issuer",
  permission: "obligations:write",
  params: ZIdParams,
  success: { status: 200, description: "The item, read", schema: ZInboxItem, example: exampleItem({ read_at: "2026-11-28T10:02:00.000Z" }) },
});

export const inboxOperations = [listInboxOp, markInboxItemReadOp];
