import { AppError } from "@/lib/errors";
import { isCrossOrigin } from "@/lib/http/cookies";
import type { Operation } from "@/lib/http/operation";

// Refusals read off the request's headers before its credential.

// Operations declared with requestMarker need `X-Service-Request: 1`.
export function checkRequestMarker(op: Operation, req: Request): void {
  if (op.requestMarker && req.headers.get("x-service-request") !== "1") {
    throw new AppError("request_marker_required", "the X-Service-Request: 1 header is required on this call");
  }
}

// A cookie-authenticated mutation from another origin is refused (CSRF, login CSRF) unless it
// is application/json, which a browser sends cross-origin only after a CORS preflight this
// service never grants. docs/security.md.
export function assertNotCrossSite(op: Operation, req: Request): void {
  if (op.method === "GET" || req.headers.get("authorization") !== null) return;
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json" || !isCrossOrigin(req)) return;
  throw new AppError("unsupported_media_type", "a request from another origin must be application/json");
}
