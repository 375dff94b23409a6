import { describe, expect, it } from "vitest";
import { assertPublic, checkDestination, refusedRange } from "@/lib/webhooks/ssrf";
import { parseRetryAfter } from "@/lib/webhooks/send";
import { signatureHeaders } from "@/lib/webhooks/sign";
import { Webhook } from "standardwebhooks";

describe("SSRF address policy", () => {
  it("refuses every non-public range, IPv4-mapped forms included", () => {
    const refused = [
      "127.0.0.1",
      "127.255.0.9",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.0.1",
      "169.254.169.254",
      "0.0.0.0",
      "100.64.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "192.0.2.1",
      "198.18.0.1",
      "240.0.0.1",
      "::1",
      "::",
      "fd00:ec2::254",
      "fc00::1",
      "fe80::1",
      "ff02::1",
      "2001:db8::1",
      "64:ff9b::7f00:1",
      "2002:7f00:1::",
      "::ffff:127.0.0.1",
      "::ffff:169.254.169.254",
      "::ffff:10.0.0.1",
      // every non-global IPv6 form (issue 33), whatever IPv4 address it embeds
      "::ffff:8.8.8.8",
      "::7f00:1",
      "::808:808",
      "::127.0.0.1",
      "64:ff9b::808:808",
      "64:ff9b:1::1",
      "2002:808:808::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "2001:20::1",
      "fd12:3456::1",
      "fe80::1%1",
      "fec0::1",
      "ff0e::1",
      "100::1",
      "::2",
      "4000::1",
    ];
    for (const a of refused) expect(refusedRange(a), a).toBeDefined();
    for (const a of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"]) expect(refusedRange(a), a).toBeUndefined();
  });

  it("refuses a host when any one of its addresses is not public", () => {
    expect(() =>
      assertPublic("mixed.example", [
        { address: "8.8.8.8", family: 4 },
        { address: "10.0.0.1", family: 4 },
      ]),
    ).toThrow(/10\.0\.0\.1/);
    expect(() => assertPublic("ok.example", [{ address: "8.8.8.8", family: 4 }])).not.toThrow();
  });

  it("resolves IP literals without DNS and refuses loopback names before resolving", async () => {
    await expect(checkDestination(new URL("http://[::1]:8080/x"), { allowPrivate: false, timeoutMs: 1000 })).rejects.toThrow(/::1/);
    // the URL parser writes [::127.0.0.1] as [::7f00:1]
    await expect(checkDestination(new URL("http://[::127.0.0.1]/x"), { allowPrivate: false, timeoutMs: 1000 })).rejects.toThrow(/not a public address/);
    await expect(checkDestination(new URL("http://LOCALHOST./x"), { allowPrivate: false, timeoutMs: 1000 })).rejects.toThrow(/loopback/);
    expect(await checkDestination(new URL("http://127.0.0.1:1/x"), { allowPrivate: true, timeoutMs: 1000 })).toEqual([{ address: "127.0.0.1", family: 4 }]);
  });
});

describe("Retry-After", () => {
  it("accepts delta-seconds and HTTP dates, capped at one day", () => {
    expect(parseRetryAfter("120")).toBe(120);
    expect(parseRetryAfter("999999")).toBe(86_400);
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    expect(parseRetryAfter(inAMinute)).toBeGreaterThanOrEqual(58);
    expect(parseRetryAfter(inAMinute)).toBeLessThanOrEqual(61);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe("signature", () => {
  it("is the Standard Webhooks v1 HMAC keyed with the secret's UTF-8 bytes", () => {
    const secret = "ünïcode-secret-0123456789abcdefghijkl";
    const body = JSON.stringify({ id: "e1", type: "obligation.registered" });
    const ts = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders({ id: "e1", timestampSeconds: ts, body, secret });
    expect(new Webhook(Buffer.from(secret, "utf8").toString("base64")).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(Buffer.from("another-secret-0123456789abcdefgh").toString("base64")).verify(body, headers)).toThrow();
  });
});
