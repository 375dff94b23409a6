import type { getObligationDetail } from "@/lib/obligations/get-obligation-detail";

// What every section of the obligation page receives: the detail as the API returns it,
// the reader's locale, and whether the reader may change the obligation.
export type ObligationDetail = Awaited<ReturnType<typeof getObligationDetail>>;
export type SectionProps = { o: ObligationDetail; locale: string; canWrite: boolean };
