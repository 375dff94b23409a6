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
      return `Some values were not accepted: ${e.message}`;
    case "payment_terms_mismatch":
      return `The payment terms do not fit the amount: ${e.message}`;
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
      return e.status >= 500 ? "Something went wrong on our side. Try again in a moment." : e.message || `The request failed (${e.status}).`;
  }
}

// Errors after which the page's data is stale and should be re-read.
export const refreshAfter = (e: ApiError) =>
  ["version_conflict", "invalid_state", "not_found", "payment_request_revoked", "payment_request_expired"].includes(e.code);
