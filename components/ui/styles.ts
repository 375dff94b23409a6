// Class names shared by the dashboard's controls (Tailwind 4). Contrast is AA on white.
export const btn = {
  primary:
    "inline-flex items-center justify-center gap-1.5 rounded-md bg-brand-700 px-3.5 py-2 text-sm font-medium text-white hover:bg-brand-900 disabled:cursor-not-allowed disabled:opacity-60",
  secondary:
    "inline-flex items-center justify-center gap-1.5 rounded-md border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60",
  danger:
    "inline-flex items-center justify-center gap-1.5 rounded-md border border-rose-300 bg-white px-3.5 py-2 text-sm font-medium text-rose-800 hover:bg-rose-50 disabled:cursor-not-allowed disabled:opacity-60",
  small:
    "inline-flex items-center justify-center gap-1 rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60",
};

export const field = {
  label: "block text-sm font-medium text-slate-800",
  input:
    "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-xs placeholder:text-slate-500 aria-invalid:border-rose-600 sm:text-sm",
  hint: "mt-1 text-sm text-slate-600",
  error: "mt-1 text-sm text-rose-700",
};

export const card = "rounded-xl border border-slate-200 bg-white shadow-xs";

// An inline link in text (lists, breadcrumbs).
export const link = "text-brand-700 underline-offset-2 hover:underline";
