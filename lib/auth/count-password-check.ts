import { env } from "@/lib/env";
import { sha256Hex } from "@/lib/crypto";
import { AppError } from "@/lib/errors";
import { reserveAttempt, type CountedAttempt } from "@/lib/rate-limit";

// Throttling of password checks (docs/administration.md, "Sign-in throttling"), in the
// database so that every instance shares the counts: per email, LOGIN_MAX_FAILURES checks
// per LOGIN_WINDOW_SECONDS window that did not succeed — sign-in, password change and
// invitation acceptance together (none may open a second, unthrottled way to guess a
// password); per client address, 20 times that, when one is given.
// Each check is counted BEFORE argon2 runs and taken back when the password was right:
// counting failures only after the check let a burst of concurrent attempts all pass a
// count read before any was recorded.
export type CountPasswordCheckInput = { email: string; clientIp?: string; message: string };

export async function countPasswordCheck({ email, clientIp, message }: CountPasswordCheckInput): Promise<CountedAttempt> {
  const { LOGIN_MAX_FAILURES, LOGIN_WINDOW_SECONDS } = env();
  const buckets = [{ key: `login:email:${sha256Hex(email.trim().toLowerCase())}`, limit: LOGIN_MAX_FAILURES }];
  if (clientIp !== undefined) buckets.push({ key: `login:ip:${clientIp}`, limit: LOGIN_MAX_FAILURES * 20 });
  const taken: CountedAttempt[] = [];
  for (const { key, limit } of buckets) {
    const r = await reserveAttempt(key, LOGIN_WINDOW_SECONDS, limit);
    if (!r.granted) {
      // refused by a later bucket: the earlier ones did not see a check either
      for (const t of taken) await t.release();
      throw new AppError("rate_limited", message, { headers: { "Retry-After": String(r.retryAfterSeconds) } });
    }
    taken.push(r);
  }
  return {
    release: async (q) => {
      for (const t of taken) await t.release(q);
    },
  };
}
