// Success responses that several operations share word for word.

// A document download: the stored bytes as an attachment (lib/documents/download-document.ts).
export const ATTACHMENT_SUCCESS = {
  status: 200,
  description: "The file as an attachment",
  contentType: "application/octet-stream",
  headers: {
    "Content-Disposition": { description: "attachment; filename=\"...\"; filename*=UTF-8''...", schema: { type: "string" } },
    "X-Content-Type-Options": { description: "nosniff", schema: { type: "string" } },
  },
} as const;
