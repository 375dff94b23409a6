import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { safeEqual } from "@/lib/crypto";

// GET /api/v1/cron/webhooks is for a scheduler holding CRON_SECRET: 404 while no
// CRON_SECRET is configured (the route does not exist then), 401 for any other credential.
export function authorizeCron(req: Request): void {
  const secret = env().CRON_SECRET;
  if (!secret) throw new AppError("not_found", "no such endpoint");
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
  if (!m || !safeEqual(m[1], secret)) throw new AppError("unauthenticated", "send Authorization: Bearer <CRON_SECRET>");
}
