"use client";

import { useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { ZWebhookUrl, type TWebhookEndpoint, type TWebhookEndpointUpdate } from "@/lib/schemas/webhooks";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { CopyButton } from "@/components/ui/copy-button";
import { FeedbackMessage } from "@/components/ui/feedback";
import { FieldError, Hint, Label, errorAttrs } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";
import { EventTypesField } from "@/components/webhooks/event-types-field";
import { describeApiError, describeWebhookError } from "@/lib/client/errors";
import { generateSecret } from "@/components/webhooks/new-endpoint-form";

// What a clerk does with one endpoint: send a test event, disable or enable it, edit its
// address, events and secret, delete it (behind a confirmation). Every button names the
// endpoint for screen readers; the outcome is announced below the buttons.
export function EndpointActions({ endpoint }: { endpoint: TWebhookEndpoint }) {
  const { submit, pending, feedback } = useMutation();
  const remove = useMutation();
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const id = useId();
  // Closing the form puts focus back on the button that opened it.
  const closeEditing = () => {
    setEditing(false);
    editButton.current?.focus();
  };
  const which = <span className="sr-only"> for {endpoint.url}</span>;
  return (
    <div className="mt-2 space-y-2">
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={btn.small}
          disabled={pending}
          onClick={() =>
            submit({
              path: `/webhook-endpoints/${endpoint.id}/test`,
              success: "Test event queued. Its delivery appears under Recent deliveries.",
              describe: describeWebhookError,
            })
          }
        >
          Send test event{which}
        </button>
        <button
          type="button"
          className={btn.small}
          disabled={pending}
          onClick={() =>
            submit<TWebhookEndpoint>({
              method: "PATCH",
              path: `/webhook-endpoints/${endpoint.id}`,
              body: { enabled: !endpoint.enabled },
              success: endpoint.enabled
                ? "Disabled. It receives no new events; deliveries that were waiting for it failed (they can be retried)."
                : "Enabled. It receives the events that happen from now on.",
              describe: describeWebhookError,
            })
          }
        >
          {endpoint.enabled ? "Disable" : "Enable"}
          {which}
        </button>
        <button
          ref={editButton}
          type="button"
          className={btn.small}
          aria-expanded={editing}
          aria-controls={editing ? `${id}-edit` : undefined}
          onClick={() => setEditing(!editing)}
        >
          {editing ? "Close editing" : "Edit"}
          {which}
        </button>
        <ConfirmButton
          label={<>Delete{which}</>}
          triggerClassName={`${btn.small} border-rose-300 text-rose-800 hover:bg-rose-50`}
          title="Delete this endpoint?"
          body={
            <>
              <p className="break-all font-mono text-xs">{endpoint.url}</p>
              <p className="mt-2">
                It receives nothing more. Deliveries still waiting for it are cancelled; past deliveries stay listed. This cannot be undone: to pause it
                instead, disable it.
              </p>
            </>
          }
          confirmLabel="Delete endpoint"
          onConfirm={async () => {
            const r = await remove.submit({ method: "DELETE", path: `/webhook-endpoints/${endpoint.id}`, describe: describeWebhookError });
            return r.ok ? null : (describeWebhookError(r.error) ?? describeApiError(r.error));
          }}
        />
      </div>
      <FeedbackMessage feedback={feedback} />
      {editing && (
        <div id={`${id}-edit`}>
          <EditEndpointForm endpoint={endpoint} onDone={closeEditing} />
        </div>
      )}
    </div>
  );
}

const ZEditForm = z.object({
  url: ZWebhookUrl,
  event_types: z.array(z.string()),
  secret: z.string().refine((s) => s === "" || (s.length >= 32 && s.length <= 256), "must be 32 to 256 characters, or empty to keep the current one"),
});
type TEditForm = z.infer<typeof ZEditForm>;

// PATCH with only what changed. A new secret signs beside the old one for 24 hours, so the
// receiving system can switch over without losing a delivery.
function EditEndpointForm({ endpoint, onDone }: { endpoint: TWebhookEndpoint; onDone: () => void }) {
  const { submit, pending, feedback, setFeedback } = useMutation();
  const p = `wh-edit-${endpoint.id}`;
  const { register, handleSubmit, formState, setValue, watch } = useForm<TEditForm>({
    resolver: zodResolver(ZEditForm),
    defaultValues: { url: endpoint.url, event_types: endpoint.event_types, secret: "" },
  });
  const secret = watch("secret");
  return (
    <form
      noValidate
      aria-label={`Edit the endpoint ${endpoint.url}`}
      className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3"
      onSubmit={handleSubmit(async (v) => {
        const body: TWebhookEndpointUpdate = {};
        if (v.url !== endpoint.url) body.url = v.url;
        const types = (v.event_types ?? []) as TWebhookEndpoint["event_types"];
        if ([...types].sort().join() !== [...endpoint.event_types].sort().join()) body.event_types = types as TWebhookEndpointUpdate["event_types"];
        if (v.secret) body.secret = v.secret;
        if (Object.keys(body).length === 0) {
          setFeedback({ kind: "error", text: "Nothing was changed." });
          return;
        }
        const r = await submit({
          method: "PATCH",
          path: `/webhook-endpoints/${endpoint.id}`,
          body,
          success: body.secret ? "Saved. For the next 24 hours deliveries carry both signatures, the new secret's and the previous one's." : "Saved.",
          describe: describeWebhookError,
        });
        if (r.ok && !body.secret) onDone();
      })}
    >
      <div>
        <Label htmlFor={`${p}-url`}>Destination URL</Label>
        <input
          id={`${p}-url`}
          type="url"
          inputMode="url"
          autoComplete="off"
          {...register("url")}
          {...errorAttrs(`${p}-url-error`, formState.errors.url?.message)}
          className={field.input}
        />
        <FieldError id={`${p}-url-error`} message={formState.errors.url?.message} />
      </div>
      <EventTypesField idPrefix={p} registration={register("event_types")} chosen={watch("event_types") ?? []} />
      <div>
        <Label htmlFor={`${p}-secret`}>New signing secret (optional)</Label>
        <div className="mt-1 flex flex-col gap-2 sm:flex-row">
          <input
            id={`${p}-secret`}
            autoComplete="off"
            spellCheck={false}
            {...register("secret")}
            {...errorAttrs(`${p}-secret-error`, formState.errors.secret?.message, `${p}-secret-hint`)}
            className={`${field.input} mt-0 font-mono text-xs`}
          />
          <button type="button" className={btn.secondary} onClick={() => setValue("secret", generateSecret(), { shouldValidate: true })}>
            Generate<span className="sr-only"> a new secret</span>
          </button>
          {secret && <CopyButton text={secret} label="Copy new secret" fallbackInputId={`${p}-secret`} />}
        </div>
        <Hint id={`${p}-secret-hint`}>
          Empty keeps the current secret. A new one is used at once; for 24 hours deliveries are also signed with the previous one, so the receiving system can
          switch without missing a delivery.
        </Hint>
        <FieldError id={`${p}-secret-error`} message={formState.errors.secret?.message} />
      </div>
      <FeedbackMessage feedback={feedback} />
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={btn.primary} disabled={pending}>
          Save changes
        </button>
        <button type="button" className={btn.secondary} onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
