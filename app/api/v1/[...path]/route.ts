import { randomUUID } from "node:crypto";
import { errorBody } from "@/lib/errors";

// Any path under /api/v1 that no route serves: the contract's 404 envelope, not an HTML page.
const notFound = (): Response =>
  Response.json(errorBody("not_found", "no such endpoint"), { status: 404, headers: { "x-request-id": randomUUID(), "cache-control": "no-store" } });

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
