"use client";

// The hosted link of an obligation registered a moment ago, handed from the form to the
// detail page within the same browser tab (client-side navigation): held in memory only,
// never in storage or in the address bar, and taken out when shown.
type Entry = { obligationId: string; hostedUrl: string; expiresAt: string };

let pending: Entry | null = null;

export function rememberNewLink(e: Entry): void {
  pending = e;
}

export function takeNewLink(obligationId: string): Entry | null {
  if (pending?.obligationId !== obligationId) return null;
  const e = pending;
  pending = null;
  return e;
}
