import { deflateSync } from "node:zlib";

// Encoders of the PDF filters the e-invoice reader decodes (lib/einvoice/pdf.ts), for tests
// and benchmarks that build hostile streams: round trips and decompression bombs of every
// filter and chain. Not optimized; the inputs are small or highly repetitive.
export const PDF_FILTERS = ["FlateDecode", "ASCIIHexDecode", "ASCII85Decode", "LZWDecode", "RunLengthDecode"] as const;
export type PdfFilter = (typeof PDF_FILTERS)[number];

export function encodeFilter(filter: PdfFilter, data: Buffer): Buffer {
  switch (filter) {
    case "FlateDecode":
      return deflateSync(data, { level: 9 });
    case "ASCIIHexDecode":
      return Buffer.from(`${data.toString("hex")}>`);
    case "ASCII85Decode":
      return ascii85(data);
    case "LZWDecode":
      return lzw(data);
    case "RunLengthDecode":
      return runLength(data);
  }
}

// The raw stream data of /Filter [f1 f2 …]: the reader decodes f1 first, so f1 encodes last.
export function encodeChain(filters: readonly PdfFilter[], payload: Buffer): Buffer {
  return filters.reduceRight((data, f) => encodeFilter(f, data), payload);
}

function ascii85(data: Buffer): Buffer {
  let out = "";
  for (let i = 0; i < data.length; i += 4) {
    const chunk = data.subarray(i, i + 4);
    const n = (((chunk[0] ?? 0) * 256 + (chunk[1] ?? 0)) * 256 + (chunk[2] ?? 0)) * 256 + (chunk[3] ?? 0);
    if (n === 0 && chunk.length === 4) {
      out += "z";
      continue;
    }
    let digits = "";
    for (let k = 0, v = n; k < 5; k++, v = Math.floor(v / 85)) digits = String.fromCharCode(33 + (v % 85)) + digits;
    out += digits.slice(0, chunk.length + 1);
  }
  return Buffer.from(`${out}~>`, "latin1");
}

function runLength(data: Buffer): Buffer {
  const out: number[] = [];
  let i = 0;
  while (i < data.length) {
    let run = 1;
    while (run < 128 && i + run < data.length && data[i + run] === data[i]) run++;
    if (run >= 2) {
      out.push(257 - run, data[i]);
      i += run;
      continue;
    }
    let lit = 1;
    while (lit < 128 && i + lit < data.length && !(i + lit + 1 < data.length && data[i + lit] === data[i + lit + 1])) lit++;
    out.push(lit - 1, ...data.subarray(i, i + lit));
    i += lit;
  }
  out.push(128);
  return Buffer.from(out);
}

// LZW with EarlyChange 1, as PDF writers write it: a clear code first and whenever the table fills.
function lzw(data: Buffer): Buffer {
  const bytes: number[] = [];
  let acc = 0;
  let have = 0;
  let decoderNext = 258; // the table size the decoder will have when it reads the next code
  let fresh = true; // the next code is the first after a clear (the decoder adds no entry for it)
  const emit = (code: number) => {
    let bits = 9;
    while (bits < 12 && decoderNext + 1 >= 1 << bits) bits++;
    acc = acc * (1 << bits) + code;
    have += bits;
    while (have >= 8) {
      const shift = 2 ** (have - 8);
      bytes.push(Math.floor(acc / shift) & 0xff);
      acc %= shift;
      have -= 8;
    }
    if (code === 256) {
      decoderNext = 258;
      fresh = true;
    } else if (code !== 257) {
      if (!fresh && decoderNext < 4096) decoderNext++;
      fresh = false;
    }
  };
  let table = new Map<number, number>();
  let next = 258;
  emit(256);
  let w = -1;
  for (const b of data) {
    if (w < 0) {
      w = b;
      continue;
    }
    const key = w * 256 + b;
    const known = table.get(key);
    if (known !== undefined) {
      w = known;
      continue;
    }
    emit(w);
    table.set(key, next++);
    if (next === 4096) {
      emit(256);
      table = new Map();
      next = 258;
    }
    w = b;
  }
  if (w >= 0) emit(w);
  emit(257);
  if (have > 0) bytes.push((acc * 2 ** (8 - have)) & 0xff);
  return Buffer.from(bytes);
}
