import { fileTypeFromBuffer } from "file-type";
import { AppError } from "@/lib/errors";

// Upload content types: decided from the bytes, never from the client's Content-Type.
// Allowed: PDF, PNG, JPEG, WebP (magic numbers via file-type), and CSV, plain text and XML
// (UTF-8 text heuristics). Refused with 415: HTML, SVG, XHTML, scripts, executables,
// archives and anything else.
export const ALLOWED_TYPES = ["application/pdf", "image/png", "image/jpeg", "image/webp", "text/csv", "text/plain", "application/xml"] as const;
export type AllowedType = (typeof ALLOWED_TYPES)[number];

const BINARY_ALLOWED = new Set(["application/pdf", "image/png", "image/jpeg", "image/webp"]);

// Names that announce active content are refused whatever the bytes look like.
const REFUSED_EXTENSIONS = new Set(
  "html htm xhtml xht shtml svg svgz js mjs cjs jsx ts vbs vbe jse wsf wsh hta sh bash zsh ksh csh ps1 psm1 bat cmd com exe dll msi msp scr cpl jar apk app elf bin so dylib py pyc pl rb php phtml asp aspx jsp swf xsl xslt".split(
    " ",
  ),
);

const ACTIVE_MARKUP = [
  "<!doctype html",
  "<html",
  "<head",
  "<body",
  "<script",
  "<iframe",
  "<frame",
  "<object",
  "<embed",
  "<svg",
  "<meta",
  "<link",
  "<style",
  "<form",
  "<img",
  "<a ",
  "<?php",
  "<%",
  "javascript:",
  "vbscript:",
  "http://www.w3.org/1999/xhtml",
  "http://www.w3.org/2000/svg",
  "<xsl:",
  "<!entity",
];

const unsupported = (why: string) =>
  new AppError("unsupported_media_type", `file type not allowed: ${why}; allowed are PDF, PNG, JPEG, WebP, CSV, plain text and XML`);

export async function sniffContentType(bytes: Buffer, filename: string): Promise<AllowedType> {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? "";
  if (REFUSED_EXTENSIONS.has(ext)) throw unsupported(`.${ext} files`);
  const detected = await fileTypeFromBuffer(bytes);
  if (detected && BINARY_ALLOWED.has(detected.mime)) return detected.mime as AllowedType;
  if (detected && detected.mime !== "application/xml") throw unsupported(detected.mime);
  return sniffText(bytes, ext);
}

function sniffText(bytes: Buffer, ext: string): AllowedType {
  let body = bytes;
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) body = body.subarray(3);
  if ((body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff)) throw unsupported("UTF-16 text (use UTF-8)");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    throw unsupported("unrecognised binary content");
  }
  // Text has no NULs and (almost) no other control characters than tab, CR, LF, FF.
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) throw unsupported("unrecognised binary content");
    if (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) controls++;
  }
  if (controls > Math.max(2, text.length / 1000)) throw unsupported("unrecognised binary content");

  const head = text.trimStart();
  if (head.startsWith("#!")) throw unsupported("scripts");
  const lower = text.toLowerCase();
  for (const marker of ACTIVE_MARKUP) if (lower.includes(marker)) throw unsupported("HTML, SVG or other active content");

  if (head.startsWith("<")) {
    if (!/^<(\?xml[\s?]|!--|!doctype\s|[A-Za-z_][\w.:-]*[\s/>])/i.test(head)) throw unsupported("unrecognised markup");
    return "application/xml";
  }
  if (ext === "csv" || ext === "tsv" || looksLikeCsv(text)) return "text/csv";
  return "text/plain";
}

function looksLikeCsv(text: string): boolean {
  const lines = text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "")
    .slice(0, 20);
  if (lines.length < 2) return false;
  for (const d of [",", ";", "\t"]) {
    const counts = lines.map((l) => l.replace(/"[^"]*"/g, "").split(d).length - 1);
    if (counts[0] >= 1 && counts.every((c) => c === counts[0])) return true;
  }
  return false;
}
