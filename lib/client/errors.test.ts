import { describe, expect, it } from "vitest";
import { describeApiError, describeWebhookError, inWords } from "@/lib/client/errors";

describe("form errors in words", () => {
  it("names fields in words, never as raw paths", () => {
    expect(inWords("body.url: must be an absolute http or https URL")).toBe("Destination URL: must be an absolute http or https URL.");
    expect(inWords("body.url: must be an absolute http or https URL; body.secret: must be 32 to 256 characters")).toBe(
      "Destination URL: must be an absolute http or https URL. Signing secret: must be 32 to 256 characters.",
    );
    expect(inWords("body.payment_terms.1.due_days: must be at least 1")).toBe("Payment terms, item 2 › Due days: must be at least 1.");
    expect(inWords("body.debtor.name: required")).toBe("Debtor › Name: required.");
    expect(inWords("query.sort: unknown value")).toBe("Sort: unknown value.");
    expect(inWords("the amount is too large")).toBe("the amount is too large.");
  });

  it("the refusal of a private webhook address names the setting that allows it", () => {
    const text = describeApiError({
      status: 422,
      code: "validation_failed",
      message:
        "body.url: localhost is a loopback name; private and loopback destinations are accepted only when the server runs with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true",
    });
    expect(text).not.toContain("body.");
    expect(text).toContain("Destination URL: localhost is a loopback name");
    expect(text).toContain("WEBHOOK_ALLOW_PRIVATE_NETWORKS");
    // The webhook forms say it in a sentence, with the reason and the setting.
    const words = describeWebhookError({
      status: 422,
      code: "validation_failed",
      message:
        "body.url: 10.0.0.7 resolves to 10.0.0.7 (private), which is not a public address; private and loopback destinations are accepted only when the server runs with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true",
    });
    expect(words).toBe(
      "This destination is on a private or local network (10.0.0.7 resolves to 10.0.0.7 (private), which is not a public address). The service refuses such addresses so that webhooks cannot reach internal systems. To allow them, for example for a receiver inside your own network, the server's operator turns on the setting WEBHOOK_ALLOW_PRIVATE_NETWORKS (sets it to true) and restarts the service.",
    );
    expect(describeWebhookError({ status: 422, code: "validation_failed", message: "body.secret: must be 32 to 256 characters" })).toBeUndefined();
  });
});
