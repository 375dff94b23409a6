import type { Operation } from "@/lib/http/operation";
import { sessionOperations } from "@/lib/operations/sessions";
import { webhookOperations } from "@/lib/operations/webhooks";

// Every operation of the API, in document order. Each capability adds its list here.
export const ALL_OPERATIONS: Operation[] = [...sessionOperations, ...webhookOperations];
