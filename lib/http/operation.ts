import type { z } from "zod";
import type { Permission } from "@/lib/auth/permissions";

// One declaration per endpoint: the route handler validates with these schemas and the
// OpenAPI document (lib/openapi) is generated from the very same objects.
export type AuthMode =
  | "issuer" // API key (Bearer) or issuer session cookie
  | "issuer_session" // issuer session cookie only
  | "recipient" // recipient session cookie of the operation's recipientLink family
  | "cron" // Authorization: Bearer $CRON_SECRET (404 while CRON_SECRET is unset)
  | "none";

export type ResponseSpec = {
  description: string;
  schema?: z.ZodType;
  contentType?: string; // default application/json
  headers?: Record<string, { description: string; schema: { type: string } }>;
  example?: unknown;
};

export type Operation = {
  operationId: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string; // OpenAPI template relative to /api/v1, e.g. /obligations/{id}
  summary: string;
  description?: string;
  tags: string[];
  auth: AuthMode;
  // auth "recipient": which cookie family authenticates (lib/recipients/session-cookie.ts)
  recipientLink?: "single" | "context" | "account";
  permission?: Permission;
  idempotent?: "required" | "optional";
  requestMarker?: boolean; // X-Service-Request: 1
  deprecated?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  multipart?: z.ZodObject; // fields other than `file`
  bodyExample?: unknown;
  success: { status: number } & ResponseSpec;
  // Further success answers of the same operation (e.g. 200 for a dry run beside the 201).
  otherSuccess?: ({ status: number } & ResponseSpec)[];
  errors?: number[]; // extra documented error statuses beyond the pipeline's own
  // The request transaction's time limit when it must exceed lib/db/client.ts's default (a bank
  // statement of 20,000 transactions is parsed, matched and written in one transaction).
  transactionTimeoutMs?: number;
};

export const defineOperation = <T extends Operation>(op: T): T => op;
