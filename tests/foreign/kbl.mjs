// A format 2 kabucli log reader and writer written from docs/log-format.md alone
// (no kabucli code): msgpack, CRC-32, raw DEFLATE with the preset dictionary, BLAKE2b-256.
import zlib from "node:zlib";

export const MAGIC = Buffer.from("KBCLOG2\n", "latin1");
const WORDS = ("format game rules seats name control human bot:random bot:best bot:cmd: bot:py: mode " +
  "seeded physical kabucli 0.1.0 started 2026- T00:00:00+00:00 seed shuffle " +
  "blake2b-fy-v1 clock commit salt dare kazu-tori yatchaba uno-dare kabu-tsukuri ante " +
  "yaku none tie carry rounds chips limit jizo ranking extended dealer rotate winner " +
  "bet hands games points").split(" ");
export const DICT = Buffer.concat(WORDS.map((w) => Buffer.concat([Buffer.from([0xa0 | w.length]), Buffer.from(w, "latin1")])));

// ---- CRC-32 (zlib polynomial)
const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
export function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// ---- BLAKE2b (RFC 7693), BigInt words; logs are small
const M64 = (1n << 64n) - 1n;
const IV = [0x6a09e667f3bcc908n, 0xbb67ae8584caa73bn, 0x3c6ef372fe94f82bn, 0xa54ff53a5f1d36f1n,
  0x510e527fade682d1n, 0x9b05688c2b3e6c1fn, 0x1f83d9abfb41bd6bn, 0x5be0cd19137e2179n];
const SIGMA = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4], [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13], [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11], [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5], [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0]];
const rotr = (x, n) => ((x >> BigInt(n)) | (x << BigInt(64 - n))) & M64;
export function blake2b256(data) {
  const h = IV.slice();
  h[0] ^= 0x01010000n ^ 32n;
  const blocks = Math.max(1, Math.ceil(data.length / 128));
  for (let i = 0; i < blocks; i++) {
    const block = Buffer.alloc(128);
    data.copy(block, 0, i * 128, Math.min(data.length, i * 128 + 128));
    const last = i === blocks - 1;
    const t = BigInt(last ? data.length : (i + 1) * 128);
    const m = []; for (let j = 0; j < 16; j++) m.push(block.readBigUInt64LE(j * 8));
    const v = h.concat(IV);
    v[12] ^= t & M64; v[13] ^= t >> 64n;
    if (last) v[14] ^= M64;
    const G = (a, b, c, d, x, y) => {
      v[a] = (v[a] + v[b] + x) & M64; v[d] = rotr(v[d] ^ v[a], 32);
      v[c] = (v[c] + v[d]) & M64; v[b] = rotr(v[b] ^ v[c], 24);
      v[a] = (v[a] + v[b] + y) & M64; v[d] = rotr(v[d] ^ v[a], 16);
      v[c] = (v[c] + v[d]) & M64; v[b] = rotr(v[b] ^ v[c], 63);
    };
    for (let r = 0; r < 12; r++) {
      const s = SIGMA[r % 10];
      G(0, 4, 8, 12, m[s[0]], m[s[1]]); G(1, 5, 9, 13, m[s[2]], m[s[3]]);
      G(2, 6, 10, 14, m[s[4]], m[s[5]]); G(3, 7, 11, 15, m[s[6]], m[s[7]]);
      G(0, 5, 10, 15, m[s[8]], m[s[9]]); G(1, 6, 11, 12, m[s[10]], m[s[11]]);
      G(2, 7, 8, 13, m[s[12]], m[s[13]]); G(3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (let j = 0; j < 8; j++) h[j] ^= v[j] ^ v[j + 8];
  }
  const out = Buffer.alloc(64);
  h.forEach((w, j) => out.writeBigUInt64LE(w, j * 8));
  return out.subarray(0, 32);
}

// ---- msgpack: decoder that also gives each value's byte range; shortest-form encoder
export function decode(buf, pos = 0) {
  const b = buf[pos];
  const str = (n, at) => [buf.toString("utf8", at, at + n), at + n];
  const arr = (n, at) => { const a = []; for (let i = 0; i < n; i++) { const [v, p] = decode(buf, at); a.push(v); at = p; } return [a, at]; };
  const map = (n, at) => {
    const o = new Map();
    for (let i = 0; i < n; i++) {
      const [k, p] = decode(buf, at); const [v, q] = decode(buf, p);
      if (o.has(k)) throw new Error(`duplicate key ${k}`);
      o.set(k, v); at = q;
    }
    return [o, at];
  };
  if (b === undefined) throw new Error("msgpack: cut short");
  if (b <= 0x7f) return [b, pos + 1];
  if (b >= 0xe0) return [b - 256, pos + 1];
  if ((b & 0xe0) === 0xa0) return str(b & 0x1f, pos + 1);
  if ((b & 0xf0) === 0x90) return arr(b & 0x0f, pos + 1);
  if ((b & 0xf0) === 0x80) return map(b & 0x0f, pos + 1);
  switch (b) {
    case 0xc0: return [null, pos + 1];
    case 0xc2: return [false, pos + 1];
    case 0xc3: return [true, pos + 1];
    case 0xcc: return [buf.readUInt8(pos + 1), pos + 2];
    case 0xcd: return [buf.readUInt16BE(pos + 1), pos + 3];
    case 0xce: return [buf.readUInt32BE(pos + 1), pos + 5];
    case 0xcf: return [buf.readBigUInt64BE(pos + 1), pos + 9];
    case 0xd0: return [buf.readInt8(pos + 1), pos + 2];
    case 0xd1: return [buf.readInt16BE(pos + 1), pos + 3];
    case 0xd2: return [buf.readInt32BE(pos + 1), pos + 5];
    case 0xd3: return [buf.readBigInt64BE(pos + 1), pos + 9];
    case 0xd9: return str(buf[pos + 1], pos + 2);
    case 0xda: return str(buf.readUInt16BE(pos + 1), pos + 3);
    case 0xdb: return str(buf.readUInt32BE(pos + 1), pos + 5);
    case 0xdc: return arr(buf.readUInt16BE(pos + 1), pos + 3);
    case 0xdd: return arr(buf.readUInt32BE(pos + 1), pos + 5);
    case 0xde: return map(buf.readUInt16BE(pos + 1), pos + 3);
    case 0xdf: return map(buf.readUInt32BE(pos + 1), pos + 5);
    default: throw new Error(`msgpack: byte 0x${b.toString(16)} not handled`);
  }
}
// The array header of a block: [count, position of its first element].
export function arrayHeader(buf) {
  const b = buf[0];
  if ((b & 0xf0) === 0x90) return [b & 0x0f, 1];
  if (b === 0xdc) return [buf.readUInt16BE(1), 3];
  if (b === 0xdd) return [buf.readUInt32BE(1), 5];
  throw new Error("a block is not an array");
}

function head(small, base, n) {
  if (n < 16) return Buffer.from([small | n]);
  if (n < 0x10000) { const o = Buffer.alloc(3); o[0] = base; o.writeUInt16BE(n, 1); return o; }
  const o = Buffer.alloc(5); o[0] = base + 1; o.writeUInt32BE(n, 1); return o;
}
export function encode(v) {
  if (v === null || v === undefined) return Buffer.from([0xc0]);
  if (v === false) return Buffer.from([0xc2]);
  if (v === true) return Buffer.from([0xc3]);
  if (typeof v === "bigint") {
    if (v >= 0n && v < 2n ** 64n) { const o = Buffer.alloc(9); o[0] = 0xcf; o.writeBigUInt64BE(v, 1); return v < 2n ** 32n ? encode(Number(v)) : o; }
    throw new Error("bigint out of range");
  }
  if (typeof v === "number") {
    if (!Number.isInteger(v)) throw new Error("no floats in a log");
    if (v >= 0) {
      if (v < 128) return Buffer.from([v]);
      if (v < 256) return Buffer.from([0xcc, v]);
      if (v < 65536) { const o = Buffer.alloc(3); o[0] = 0xcd; o.writeUInt16BE(v, 1); return o; }
      if (v < 2 ** 32) { const o = Buffer.alloc(5); o[0] = 0xce; o.writeUInt32BE(v, 1); return o; }
      const o = Buffer.alloc(9); o[0] = 0xcf; o.writeBigUInt64BE(BigInt(v), 1); return o;
    }
    if (v >= -32) return Buffer.from([v & 0xff]);
    if (v >= -128) { const o = Buffer.alloc(2); o[0] = 0xd0; o.writeInt8(v, 1); return o; }
    if (v >= -32768) { const o = Buffer.alloc(3); o[0] = 0xd1; o.writeInt16BE(v, 1); return o; }
    if (v >= -(2 ** 31)) { const o = Buffer.alloc(5); o[0] = 0xd2; o.writeInt32BE(v, 1); return o; }
    const o = Buffer.alloc(9); o[0] = 0xd3; o.writeBigInt64BE(BigInt(v), 1); return o;
  }
  if (typeof v === "string") {
    const s = Buffer.from(v, "utf8"); const n = s.length;
    let h;
    if (n < 32) h = Buffer.from([0xa0 | n]);
    else if (n < 256) h = Buffer.from([0xd9, n]);
    else if (n < 65536) { h = Buffer.alloc(3); h[0] = 0xda; h.writeUInt16BE(n, 1); }
    else { h = Buffer.alloc(5); h[0] = 0xdb; h.writeUInt32BE(n, 1); }
    return Buffer.concat([h, s]);
  }
  if (Array.isArray(v)) return Buffer.concat([head(0x90, 0xdc, v.length), ...v.map(encode)]);
  const entries = v instanceof Map ? [...v.entries()] : Object.entries(v);
  return Buffer.concat([head(0x80, 0xde, entries.length), ...entries.flatMap(([k, x]) => [encode(k), encode(x)])]);
}

// ---- payloads and frames
export function unpackPayload(payload) {
  const how = payload[0], body = payload.subarray(1);
  if (how === 0) return body;
  if (how === 1) return zlib.inflateRawSync(body, { dictionary: DICT });
  throw new Error(`payload type ${how}`);
}
export function packPayload(body) {
  if (body.length > 24) {
    const z = zlib.deflateRawSync(body, { dictionary: DICT, level: 3, windowBits: 13 });
    if (z.length < body.length) return Buffer.concat([Buffer.from([1]), z]);
  }
  return Buffer.concat([Buffer.from([0]), body]);
}
export function frame(body) {
  const payload = packPayload(body);
  const h = Buffer.alloc(8);
  h.writeUInt32BE(payload.length, 0);
  h.writeUInt32BE(crc32(payload), 4);
  return Buffer.concat([h, payload]);
}

// The header's fields in the order of the doc's table.
export const HEADER_FIELDS = ["format", "game", "rules", "seats", "mode", "kabucli", "started", "seed", "shuffle", "clock", "commit", "salt"];

// Read a whole binary log: header, records (decoded and as bytes), digest.
export function readLog(data) {
  if (!data.subarray(0, 8).equals(MAGIC)) throw new Error("not format 2");
  let pos = 8; const bodies = [];
  while (pos < data.length) {
    if (pos + 8 > data.length) throw new Error("truncated frame header");
    const size = data.readUInt32BE(pos), crc = data.readUInt32BE(pos + 4);
    const payload = data.subarray(pos + 8, pos + 8 + size);
    if (payload.length !== size) throw new Error("truncated payload");
    if (crc32(payload) !== crc) throw new Error("checksum");
    bodies.push(unpackPayload(payload));
    pos += 8 + size;
  }
  const [header, end] = decode(bodies[0]);
  if (end !== bodies[0].length) throw new Error("bytes after the header");
  const records = [], raws = [];
  for (const body of bodies.slice(1)) {
    const [n, first] = arrayHeader(body);
    let at = first;
    for (let i = 0; i < n; i++) {
      const [rec, next] = decode(body, at);
      records.push(rec); raws.push(body.subarray(at, next)); at = next;
    }
    if (at !== body.length) throw new Error("bytes after a block");
  }
  return { header, headerBytes: bodies[0], records, raws, frames: bodies.length };
}

// The digest: BLAKE2b-256 of "kabucli log 2\n", the header map re-encoded in the table's
// order (rulesOrder: the house rules in the order `kabucli rules GAME` lists them), the records.
export function digest(header, raws, rulesOrder) {
  const h = new Map();
  for (const f of HEADER_FIELDS) {
    let v = header.get(f);
    if (f === "format") v = 2;
    if (f === "rules" && rulesOrder) {
      const r = new Map(); for (const k of rulesOrder) if (v.has(k)) r.set(k, v.get(k));
      for (const [k, x] of v) if (!r.has(k)) r.set(k, x);
      v = r;
    }
    h.set(f, v);
  }
  return blake2b256(Buffer.concat([Buffer.from("kabucli log 2\n", "latin1"), encode(h), ...raws])).toString("hex");
}
