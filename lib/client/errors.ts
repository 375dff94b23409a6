import type { ApiError } from "@/lib/client/api";

// What a person should read when a call of our own API fails. The API's own message is
// kept where it helps (validation details), the code decides the wording.
export function describeApiError(e: ApiError): string {
  switch (e.code) {
    case "insufficient_permission":
      return "Your role does not allow this change. Ask an owner or admin of your organization.";
    case "unauthenticated":
      return "Your session has ended. Sign in again to continue.";
    case "version_conflict":
      return "This obligation was changed by someone else since you opened it. The page now shows the latest version: check it and try again.";
    case "invalid_state":
      return `This is not possible in the obligation's current state (${e.message}). The page has been refreshed.`;
    case "payment_request_revoked":
      return "The hosted link is revoked. Reissue it to get a working link.";
    case "payment_request_expired":
      return "The hosted link has expired. Reissue it to get a working link.";
    case "invitation_expired":
      return "This link has expired, was already used or was withdrawn. Ask an owner or admin of the organization for a new one.";
    case "validation_failed":
      return `Some values were not accepted. ${inWords(e.message)}`;
    case "payment_terms_mismatch":
      return `The payment terms do not fit the amount. ${inWords(e.message)}`;
    case "payload_too_large":
      return "The file is too large. The limit is 10 MB.";
    case "unsupported_media_type":
      return "This file type is not accepted. Upload a PDF, PNG, JPEG, WebP, CSV, plain text or XML file.";
    case "rate_limited":
      return "Too many requests. Wait a moment and try again.";
    case "idempotency_request_in_progress":
      return "The same request is still being processed. Wait a moment, then reload.";
    case "not_found":
      return "It no longer exists, or it belongs to another organization.";
    case "network_error":
      return e.message;
    default:
      return e.status >= 500
        ? "Something went wrong on our side. Try again in a moment."
        : e.message
          ? inWords(e.message)
          : `The request failed (${e.status}).`;
  }
}

// Errors after which the page's data is stale and should be re-read.
export const refreshAfter = (e: ApiError) =>
  ["version_conflict", "invalid_state", "not_found", "payment_request_revoked", "payment_request_expired"].includes(e.code);

// Words a person knows for the API's field names (the rest: "due_days" -> "Due days").
const FIELD_WORDS: Record<string, string> = {
  url: "Destination URL",
  secret: "Signing secret",
  event_types: "Event types",
  amount_minor: "Amount",
  fixed_amount_minor: "Amount",
  percentage_basis_points: "Percentage",
  expected_version: "Version",
  external_reference: "External reference",
  invoice_number: "Invoice number",
  received_on: "Date received",
  payment_terms: "Payment terms",
  iban: "IBAN",
  bic: "BIC",
  email: "Email",
  name: "Name",
};

function fieldWords(path: string): string {
  // body.payment_terms.1.due_days -> "Payment terms, part 2: Due days"
  const parts = path.split(".").filter((p) => p !== "body" && p !== "query" && p !== "params");
  const words: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (/^\d+$/.test(p)) {
      if (words.length) words[words.length - 1] += `, item ${Number(p) + 1}`;
      continue;
    }
    const w = FIELD_WORDS[p] ?? p.replace(/_/g, " ");
    words.push(w.charAt(0).toUpperCase() + w.slice(1));
  }
  return words.join(" › ") || "The request";
}

// "body.url: must be an absolute http or https URL; body.secret: must be 32 to 256 characters"
// -> "Destination URL: must be an absolute http or https URL. Signing secret: must be 32 to 256 characters."
export function inWords(message: string): string {
  return message
    .split("; ")
    .map((part) => {
      const m = /^((?:body|query|params)(?:\.[A-Za-z0-9_]+)*): (.*)$/s.exec(part);
      const sentence = m ? `${fieldWords(m[1])}: ${m[2]}` : part;
      return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
    })
    .join(" ");
}

// The webhook forms' own wording for some refusals (the rest: describeApiError). A private
// or loopback address is refused unless the server allows it: say why, and which setting.
export function describeWebhookError(e: ApiError): string | undefined {
  const setting = "WEBHOOK_ALLOW_PRIVATE_NETWORKS";
  if (e.code === "validation_failed" && e.message.includes(setting)) {
    const reason = /^body\.url: (.*?); private and loopback destinations/.exec(e.message)?.[1];
    return `This destination is on a private or local network${reason ? ` (${reason})` : ""}. The service refuses such addresses so that webhooks cannot reach internal systems. To allow them, for example for a receiver inside your own network, the server's operator turns on the setting ${setting} (sets it to true) and restarts the service.`;
  }
  if (e.code === "not_found") return "This endpoint no longer exists: it was deleted. The page now shows the current list.";
  return undefined;
}
