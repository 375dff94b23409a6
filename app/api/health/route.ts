import { sql as raw } from "kysely";
import { db } from "@/lib/db/client";
import { query } from "@/lib/db/query";

export const dynamic = "force-dynamic";

// GET /api/health – readiness: the database answers.
export async function GET(): Promise<Response> {
  try {
    await raw`SELECT 1`.execute(query(db()));
    return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
  } catch {
    return Response.json({ status: "unavailable" }, { status: 503, headers: { "cache-control": "no-store" } });
  }
}
