import { NextResponse, type NextRequest } from "next/server";
import { currentUser } from "@/lib/auth/current-user";
import { can } from "@/lib/dashboard/permissions";
import { db } from "@/lib/db/client";
import { todayUtc } from "@/lib/schemas/common";
import { parseListFilters } from "@/lib/dashboard/list-filters";
import { CSV_COLUMNS, csvLine, exportObligationsBatch, type ExportCursor } from "@/lib/dashboard/export-obligations";

const BATCH = 500;

// GET /dashboard/obligations/export – the obligations list as CSV, with the list page's
// filters, search and order (its query string), streamed batch by batch.
export async function GET(request: NextRequest) {
  const user = await currentUser();
  if (!user) return new NextResponse("Sign in first.\n", { status: 401, headers: { "content-type": "text/plain; charset=utf-8" } });
  if (!can(user.role, "obligations:read")) return new NextResponse("Not found.\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  const sp: Record<string, string[]> = {};
  for (const [k, v] of request.nextUrl.searchParams) sp[k] = [...(sp[k] ?? []), v];
  const filters = parseListFilters(sp);
  if (filters.errors.length) {
    const e = filters.errors[0];
    return new NextResponse(`${e.field}: ${e.message}\n`, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const { limit: _l, offset: _o, ...query } = filters.query;
  const today = todayUtc();
  const organizationId = user.organizationId;
  const encoder = new TextEncoder();
  let cursor: ExportCursor | undefined;
  let started = false;
  let done = false;

  // pull-based: the next batch is read only when the client has taken the previous one
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`${csvLine(CSV_COLUMNS)}\r\n`));
        return;
      }
      if (done) {
        controller.close();
        return;
      }
      const batch = await exportObligationsBatch(db(), { organizationId, query, after: cursor, batchSize: BATCH, today });
      if (batch.lines.length) controller.enqueue(encoder.encode(batch.lines.map((l) => `${l}\r\n`).join("")));
      cursor = batch.next;
      if (!cursor) {
        done = true;
        controller.close();
      }
    },
  });
  return new NextResponse(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="obligations-${today}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
