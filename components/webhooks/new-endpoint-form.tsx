"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { apiCall } from "@/lib/client/api";
import { describeApiError } from "@/lib/client/errors";
import { useSubmissionKey } from "@/lib/client/submission-key";
import { ZWebhookEndpointInput, type TWebhookEndpointInput } from "@/lib/schemas/webhooks";
import { CopyButton } from "@/components/ui/copy-button";
import { FieldError, errorAttrs } from "@/components/ui/field-error";
import { btn, field } from "@/components/ui/styles";

// 32 random bytes as hex: a signing secret of 64 characters, made in the browser.
function generateSecret(): string {
  const b = new Uint8Array(32);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

// POST /webhook-endpoints with the API's schema. The secret is never shown again after
// this form: copy it into the receiving system before saving.
export function NewEndpointForm() {
  const router = useRouter();
  const keys = useSubmissionKey();
  const [message, setMessage] = useState<{ kind: "error" | "success"; text: string } | null>(null);
  const { register, handleSubmit, formState, setValue, watch, reset } = useForm<TWebhookEndpointInput>({
    resolver: zodResolver(ZWebhookEndpointInput),
    defaultValues: { url: "", secret: "" },
  });
  const secret = watch("secret");
  return (
    <form
      noValidate
      aria-label="Add a webhook endpoint"
      className="space-y-3"
      onSubmit={handleSubmit(async (body) => {
        setMessage(null);
        const r = await apiCall<{ id: string; url: string }>("POST", "/webhook-endpoints", { body, idempotencyKey: keys.keyFor(body) });
        if (r.ok || r.error.code !== "network_error") keys.settle();
        if (!r.ok) return setMessage({ kind: "error", text: describeApiError(r.error) });
        reset({ url: "", secret: "" });
        setMessage({ kind: "success", text: `Endpoint added. Future events are sent to ${r.data.url}.` });
        router.refresh();
      })}
    >
      <div>
        <label htmlFor="wh-url" className={field.label}>
          Destination URL
        </label>
        <input
          id="wh-url"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://hooks.example.com/obligations"
          {...register("url")}
          {...errorAttrs("wh-url-error", formState.errors.url?.message)}
          className={field.input}
        />
        <FieldError id="wh-url-error" message={formState.errors.url?.message} />
      </div>
      <div>
        <label htmlFor="wh-secret" className={field.label}>
          Signing secret
        </label>
        <div className="mt-1 flex flex-col gap-2 sm:flex-row">
          <input
            id="wh-secret"
            autoComplete="off"
            spellCheck={false}
            {...register("secret")}
            aria-invalid={!!formState.errors.secret}
            aria-describedby={`wh-secret-hint${formState.errors.secret ? " wh-secret-error" : ""}`}
            className={`${field.input} mt-0 font-mono text-xs`}
          />
          <button type="button" className={btn.secondary} onClick={() => setValue("secret", generateSecret(), { shouldValidate: true })}>
            Generate
          </button>
          {secret && <CopyButton text={secret} label="Copy secret" fallbackInputId="wh-secret" />}
        </div>
        <p id="wh-secret-hint" className={field.hint}>
          32 to 256 characters. Requests are signed with it (Standard Webhooks, HMAC-SHA256). It is stored encrypted and never shown again.
        </p>
        <FieldError id="wh-secret-error" message={formState.errors.secret?.message} />
      </div>
      {message && (
        <p role={message.kind === "error" ? "alert" : "status"} className={`text-sm ${message.kind === "error" ? "text-rose-700" : "text-emerald-800"}`}>
          {message.text}
        </p>
      )}
      <button type="submit" className={btn.primary} disabled={formState.isSubmitting}>
        Add endpoint
      </button>
    </form>
  );
}
