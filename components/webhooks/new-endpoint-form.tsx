"use client";

import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { ZWebhookEndpointInput, type TWebhookEndpointInput } from "@/lib/schemas/webhooks";
import { CopyButton } from "@/components/ui/copy-button";
import { FeedbackMessage } from "@/components/ui/feedback";
import { FieldError, Hint, Label, errorAttrs } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";
import { EventTypesField } from "@/components/webhooks/event-types-field";
import { describeWebhookError } from "@/lib/client/errors";

// 32 random bytes as hex: a signing secret of 64 characters, made in the browser.
export function generateSecret(): string {
  const b = new Uint8Array(32);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

// POST /webhook-endpoints with the API's schema. The secret is never shown again after
// this form: copy it into the receiving system before saving.
export function NewEndpointForm() {
  const { submit, pending, feedback } = useMutation();
  const { register, handleSubmit, formState, setValue, watch, reset } = useForm<TWebhookEndpointInput>({
    resolver: zodResolver(ZWebhookEndpointInput),
    defaultValues: { url: "", secret: "", event_types: [] },
  });
  const secret = watch("secret");
  return (
    <form
      noValidate
      aria-label="Add a webhook endpoint"
      className="space-y-3"
      onSubmit={handleSubmit(async (body) => {
        const { event_types, ...rest } = body;
        const r = await submit<{ url: string }>({
          path: "/webhook-endpoints",
          body: event_types?.length ? body : rest,
          success: (e) => `Endpoint added. Future events are sent to ${e.url}.`,
          describe: describeWebhookError,
        });
        if (r.ok) reset({ url: "", secret: "", event_types: [] });
      })}
    >
      <div>
        <Label htmlFor="wh-url">Destination URL</Label>
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
        <Label htmlFor="wh-secret">Signing secret</Label>
        <div className="mt-1 flex flex-col gap-2 sm:flex-row">
          <input
            id="wh-secret"
            autoComplete="off"
            spellCheck={false}
            {...register("secret")}
            {...errorAttrs("wh-secret-error", formState.errors.secret?.message, "wh-secret-hint")}
            className={`${field.input} mt-0 font-mono text-xs`}
          />
          <button type="button" className={btn.secondary} onClick={() => setValue("secret", generateSecret(), { shouldValidate: true })}>
            Generate
          </button>
          {secret && <CopyButton text={secret} label="Copy secret" fallbackInputId="wh-secret" />}
        </div>
        <Hint id="wh-secret-hint">
          32 to 256 characters. Requests are signed with it (Standard Webhooks, HMAC-SHA256). It is stored encrypted and never shown again.
        </Hint>
        <FieldError id="wh-secret-error" message={formState.errors.secret?.message} />
      </div>
      <EventTypesField idPrefix="wh-new" registration={register("event_types")} chosen={watch("event_types") ?? []} />
      <FeedbackMessage feedback={feedback} />
      <button type="submit" className={btn.primary} disabled={pending}>
        Add endpoint
      </button>
    </form>
  );
}
