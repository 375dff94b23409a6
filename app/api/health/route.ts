import { db } from "@/lib/db/client";

export const dynamic = "force-dynamic";

// GET /api/health – readiness: the database answers.
export async function GET(): Promise<Response> {
  try {
    await db().$queryRaw`SELECT 1`;
    return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
  } catch {
    return Response.json({ status: "unavailable" }, { status: 503, headers: { "cache-control": "no-store" } });
  }
}
