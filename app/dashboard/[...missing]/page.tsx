import { notFound } from "next/navigation";

// An unknown dashboard address renders the dashboard's own not-found page inside its layout
// (signed in, with the per-request CSP nonce) instead of Next.js's prerendered 404, whose
// scripts carry no nonce.
export default function MissingDashboardPage(): never {
  notFound();
}
