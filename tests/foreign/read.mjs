// node tests/foreign/read.mjs FILE...: print one JSON line per log: its records and digest.
import fs from "node:fs";
import { readLog, digest, blake2b256, DICT } from "./kbl.mjs";

const hex = (b) => b.toString("hex");
if (process.argv[2] === "--selftest") {
  // BLAKE2b-256 of "abc" (RFC 7693 test vectors use 512; this one is the well-known 256 value)
  console.log(hex(blake2b256(Buffer.from("abc"))), DICT.length, hex(blake2b256(DICT)));
  process.exit(0);
}
const toJSON = (v) => JSON.stringify(v, (k, x) => (x instanceof Map ? Object.fromEntries(x) : typeof x === "bigint" ? x.toString() : x));
for (const file of process.argv.slice(2)) {
  const log = readLog(fs.readFileSync(file));
  console.log(toJSON({ log: file, header: log.header, frames: log.frames, records: log.records, digest: digest(log.header, log.raws) }));
}
