/**
 * Decodes a description file whatever its encoding: UTF-8 (with or without BOM), UTF-16 LE/BE with BOM, and
 * anything that is not valid UTF-8 as Windows-1252 (BIRD ships a few such files). The BOM is removed.
 */
export function decodeTextFile(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe)
    return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  const withoutBom =
    bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(withoutBom);
  } catch {
    return decodeWindows1252(withoutBom);
  }
}

/** Windows-1252 code points of bytes 0x80–0x9F (undefined bytes map to themselves, as browsers do). */
const windows1252High = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

function decodeWindows1252(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes)
    text += String.fromCharCode(byte >= 0x80 && byte < 0xa0 ? windows1252High[byte - 0x80]! : byte);
  return text;
}
