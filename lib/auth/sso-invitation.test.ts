import { describe, expect, it } from "vitest";
import { parseInvitationCookie } from "@/lib/auth/sso-invitation";

describe("parseInvitationCookie", () => {
  const id = "7d6c5b4a-3f2e-4d1c-9b8a-7f6e5d4c3b2a";

  it("reads `{id}.{token}`; the token may itself hold dots", () => {
    expect(parseInvitationCookie(`${id}.abc_DEF-123`)).toEqual({ id, token: "abc_DEF-123" });
    expect(parseInvitationCookie(`${id}.a.b`)).toEqual({ id, token: "a.b" });
  });

  it("refuses anything else: no cookie, no dot, a bad id, an empty or oversized token", () => {
    for (const v of [undefined, "", id, `not-a-uuid.token`, `${id}.`, `${id}.${"x".repeat(201)}`, `.${id}`]) {
      expect(parseInvitationCookie(v), String(v)).toBeUndefined();
    }
  });
});
