"use client";

import { apiCall } from "@/lib/client/api";
import type { TMutationResult } from "@/lib/schemas/obligations";
import type { TRecipientAction, TRecipientInvoice, TRecipientSession } from "@/lib/schemas/recipient";

// The hosted page talks only to the request-scoped family, so two links opened in one
// browser keep separate cookies. State-changing calls carry the request marker and an
// Idempotency-Key (a retry of the same submission reuses its key).
const MARKER = { "x-service-request": "1" };

export function recipientApi(requestId: string) {
  const base = `/recipient/contexts/${requestId}`;
  return {
    exchange: (token: string, key: string) => apiCall<TRecipientSession>("POST", `${base}/session`, { body: { token }, idempotencyKey: key, headers: MARKER }),
    invoice: () => apiCall<TRecipientInvoice>("GET", `${base}/invoice`),
    // the thread beyond the invoice's latest messages, newest first
    messages: (offset: number) => apiCall<{ items: TRecipientInvoice["messages"] }>("GET", `${base}/messages?limit=100&offset=${offset}`),
    act: (body: TRecipientAction, key: string) => apiCall<TMutationResult>("POST", `${base}/actions`, { body, idempotencyKey: key, headers: MARKER }),
    upload: (form: FormData, key: string) => apiCall<TMutationResult>("POST", `${base}/documents`, { form, idempotencyKey: key, headers: MARKER }),
    documentUrl: (documentId: string) => `/api/v1${base}/documents/${documentId}`,
  };
}
export type RecipientApi = ReturnType<typeof recipientApi>;
