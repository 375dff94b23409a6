import { expect, type Locator } from "@playwright/test";
import jsQR from "jsqr";
import { PNG } from "pngjs";

// The EPC QR code (GiroCode) as a person's camera sees it: a screenshot of the element,
// decoded, split into the fields of EPC069-12 version 002 (one per line).
export async function decodeEpcQr(svg: Locator) {
  await expect(svg).toBeVisible();
  const png = PNG.sync.read(await svg.screenshot());
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  expect(code, "the QR code decodes").not.toBeNull();
  const lines = code!.data.split("\n");
  const [serviceTag, version, encoding, identification, bic, name, iban, amount, purpose, reference, text] = lines;
  return { lines, serviceTag, version, encoding, identification, bic, name, iban, amount, purpose, reference, text };
}
