import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { Api, baseUrl } from "./support/api";
import { linkParts } from "./support/identity";
import { newOrg, signedIn, type OrgFixture } from "./support/fixtures";
import { legacyFingerprint } from "./support/legacy-fingerprint";
import { legacyBody } from "./support/obligations";
import { RecipientClient, requestIdOf, tokenOf } from "./support/recipient";

// Capability tokens and secrets are never stored in plain form: after the calls that
// create or return them (each with an Idempotency-Key, so their responses are stored for
// replay), no row of any table holds one of them. Replays still answer byte for byte.

// Every text of every row of every table of the schema that holds `value` (row counts per table).
async function tablesHolding(value: string): Promise<Record<string, number>> {
  const tables = await db().$queryRawUnsafe<{ name: string }[]>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
  );
  const found: Record<string, number> = {};
  for (const { name } of tables) {
    const [{ n }] = await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${name}" t WHERE strpos(t::text, $1) > 0`, value);
    if (n > 0) found[name] = n;
  }
  return found;
}

describe("secrets at rest", () => {
  let org: OrgFixture;
  const secrets = new Map<string, string>();
  // Unsalted digests of requests that carried a secret: stored, they could be guessed offline.
  const digests = new Map<string, string>();
  const replays: { path: string; body: unknown; key: string; text: string }[] = [];

  const post = async (path: string, body: unknown) => {
    const key = `rest-${randomUUID()}`;
    const r = await org.api.post(path, body, { idempotencyKey: key });
    expect(r.status, r.text).toBeLessThan(300);
    replays.push({ path, body, key, text: r.text });
    return r.body;
  };

  beforeAll(async () => {
    org = await newOrg("Sealed Ltd");
    secrets.set("API key", org.apiKey);

    const registered = await post("/obligations", legacyBody());
    const first = registered.payment_request.hosted_url as string;
    secrets.set("registration's hosted URL token", tokenOf(first));

    const reissued = await post(`/obligations/${registered.invoice.id}/actions`, { action: "reissue_link", expected_version: 1 });
    const second = reissued.payment_request.hosted_url as string;
    expect(tokenOf(second)).not.toBe(tokenOf(first));
    secrets.set("reissued hosted URL token", tokenOf(second));

    const recipient = new RecipientClient(baseUrl());
    const opened = await recipient.post(`/recipient/contexts/${requestIdOf(second)}/session`, { token: tokenOf(second) });
    expect(opened.status, opened.text).toBe(200);
    for (const c of recipient.jar.cookies) secrets.set(`recipient cookie ${c.name}`, c.value);

    const webhookSecret = `whsec-${randomUUID()}`;
    await post("/webhook-endpoints", { url: "https://hooks.example.test/in", secret: webhookSecret });
    secrets.set("webhook signing secret", webhookSecret);

    const staff = await signedIn(org.email);
    for (const c of staff.cookie!.split("; ")) secrets.set(`staff cookie ${c.split("=")[0]}`, c.slice(c.indexOf("=") + 1));

    const member = { email: `m-${randomUUID()}@example.test`, role: "viewer" };
    const added = await staff.post("/members", member, { idempotencyKey: `rest-${randomUUID()}` });
    expect(added.status, added.text).toBe(201);
    const invitation = linkParts(added.body.invitation.url);
    secrets.set("invitation token", invitation.token);
    const acceptance = { token: invitation.token, password: `own-${randomUUID()}` };
    const accepted = await new Api(baseUrl()).post(`/invitations/${invitation.id}/accept`, acceptance, { idempotencyKey: `rest-${randomUUID()}` });
    expect(accepted.status, accepted.text).toBe(200);
    secrets.set("new member's password", acceptance.password);
    digests.set("invitation acceptance's request", legacyFingerprint("POST", `/api/v1/invitations/${invitation.id}/accept`, acceptance));
    digests.set(
      "webhook endpoint's request",
      legacyFingerprint("POST", "/api/v1/webhook-endpoints", { url: "https://hooks.example.test/in", secret: webhookSecret }),
    );
  });

  it("no table holds a token, cookie, API key or signing secret in plain form", async () => {
    expect(secrets.size).toBeGreaterThanOrEqual(6);
    for (const [what, value] of secrets) {
      expect(value.length, what).toBeGreaterThanOrEqual(20);
      expect(await tablesHolding(value), what).toEqual({});
    }
  });

  it("no table holds a plain digest of a request that carried a password or a secret", async () => {
    for (const [what, digest] of digests) expect(await tablesHolding(digest), what).toEqual({});
  });

  it("the stored responses still replay byte for byte", async () => {
    for (const r of replays) {
      const again = await org.api.post(r.path, r.body, { idempotencyKey: r.key });
      expect(again.headers.get("idempotent-replayed"), r.path).toBe("true");
      expect(again.text, r.path).toBe(r.text);
    }
  });
});
