import type { RecipientMessages } from "@/lib/i18n/recipient/en";

// What the server of /r/{request} hands the browser's island, as JSON inside the HTML.
export type PageData = { requestId: string | null; messages: RecipientMessages; lang: string; locale: string; explicit: boolean };
