"use client";

import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { ZIssuerAction } from "@/lib/schemas/obligations";
import { Label, FieldError, errorAttrs } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useObligationMutation } from "@/components/obligations/obligation-context";

// The message field of the API's post_message action.
const postMessage = ZIssuerAction.options.find((o) => o.shape.action.value === "post_message");
if (!postMessage) throw new Error("post_message is no longer an issuer action");
const ZPostMessage = z.object({ message: (postMessage.shape as unknown as { message: z.ZodString }).message });
type TPostMessage = z.infer<typeof ZPostMessage>;

// Post a message to the recipient (visible on the hosted page).
export function MessageForm() {
  const { run, pending, feedback } = useObligationMutation();
  const { register, handleSubmit, reset, formState } = useForm<TPostMessage>({
    resolver: zodResolver(ZPostMessage, {
      error: (iss) => (iss.code === "too_small" ? "Write a message first." : iss.code === "too_big" ? "At most 4000 characters." : undefined),
    }),
    defaultValues: { message: "" },
  });
  return (
    <form
      noValidate
      className="space-y-2"
      onSubmit={handleSubmit(async ({ message }) => {
        const r = await run("/actions", (v) => ({ body: { action: "post_message", expected_version: v, message } }), "Message posted.");
        if (r.ok) reset({ message: "" });
      })}
    >
      <Label htmlFor="message">New message to the recipient</Label>
      <textarea
        id="message"
        rows={3}
        maxLength={4000}
        {...register("message")}
        {...errorAttrs("message-error", formState.errors.message?.message)}
        className={field.input}
      />
      <FieldError id="message-error" message={formState.errors.message?.message} />
      <button type="submit" className={btn.secondary} disabled={pending}>
        Post message
      </button>
      <FeedbackMessage feedback={feedback} />
    </form>
  );
}
