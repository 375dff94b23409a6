// Runs `fn` once the browser is idle after the current frame (requestIdleCallback, with a
// deadline; a short timeout where it does not exist, e.g. Safari). The page uses it for the
// work that need not be in the first paint of the invoice: the forms, documents and
// messages, and drawing the QR code. Returns a cancel function for effect clean-ups.
export function whenIdle(fn: () => void): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const id = window.requestIdleCallback(fn, { timeout: 1000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(fn, 50);
  return () => window.clearTimeout(id);
}
