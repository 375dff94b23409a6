import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/lib/env";

// The SMTP transport of reminders (env SMTP_URL, SMTP_FROM), one per process. The message
// bodies and the hosted URL inside them are never logged (nodemailer logs nothing by default).
let transport: Transporter | undefined;

export type Mail = { to: string; senderName: string; replyTo: string; subject: string; text: string; html: string; language: string };

export async function sendMail(m: Mail): Promise<{ messageId: string; response: string }> {
  const url = env().SMTP_URL;
  if (!url) throw new Error("SMTP_URL is not set");
  transport ??= nodemailer.createTransport(url);
  const fromAddress = env().SMTP_FROM;
  const info = await transport.sendMail({
    from: m.senderName ? { name: m.senderName, address: fromAddress } : fromAddress,
    to: m.to,
    ...(m.replyTo ? { replyTo: m.replyTo } : {}),
    subject: m.subject,
    text: m.text,
    html: m.html,
    headers: { "Content-Language": m.language },
  });
  return { messageId: String(info.messageId ?? ""), response: String(info.response ?? "") };
}
