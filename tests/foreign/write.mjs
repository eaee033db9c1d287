// node tests/foreign/write.mjs SPEC.json OUT: write a format 2 log from SPEC, a JSON object
// {"header": {...}, "events": [...]} (events in their JSON Lines form, a timed log's inputs
// with "t"), or from a JSON Lines log (SPEC ending in .jsonl). OUT ending in .jsonl gets JSON
// Lines (every event given), any other name the binary encoding (the inputs only).
// Prints the log's digest.
import fs from "node:fs";
import { MAGIC, HEADER_FIELDS, encode, frame, digest } from "./kbl.mjs";
import { recordOf } from "./events.mjs";

const [specFile, out, blockSize = "4096"] = process.argv.slice(2);
let spec;
if (specFile.endsWith(".jsonl")) {
  const lines = fs.readFileSync(specFile, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  spec = { header: lines[0], events: lines.slice(1) };
} else spec = JSON.parse(fs.readFileSync(specFile, "utf8"));
const toMap = (o) => (Array.isArray(o) ? o.map(toMap) : o && typeof o === "object" ? new Map(Object.entries(o).map(([k, v]) => [k, toMap(v)])) : o);
const header = new Map(HEADER_FIELDS.map((f) => [f, toMap(spec.header[f] ?? null)]));
const game = header.get("game"), mode = header.get("mode"), clock = header.get("clock");

const records = [];
let last = clock;
for (const ev of spec.events) {
  let dt;
  if (clock !== null) {
    if (!("t" in ev) && recordOf(game, mode, ev, 0)) throw new Error(`input without a time: ${JSON.stringify(ev)}`);
    if ("t" in ev) { dt = ev.t - last; last = ev.t; }
  }
  const rec = recordOf(game, mode, ev, dt);
  if (rec) records.push(encode(rec));
}
const d = digest(header, records);
if (out.endsWith(".jsonl")) {
  const lines = [JSON.stringify(Object.fromEntries(HEADER_FIELDS.map((f) => [f, spec.header[f] ?? null])))];
  for (const ev of spec.events) {
    const { e, t, ...rest } = ev;
    lines.push(JSON.stringify(t === undefined ? { e, ...rest } : { e, ...rest, t }));
  }
  fs.writeFileSync(out, lines.join("\n") + "\n");
} else {
  const parts = [MAGIC, frame(encode(header))];
  const n = Number(blockSize);
  for (let i = 0; i < records.length; i += n) {
    const block = records.slice(i, i + n);
    const len = block.length;
    const head = len < 16 ? Buffer.from([0x90 | len]) : Buffer.from([0xdc, len >> 8, len & 0xff]);
    parts.push(frame(Buffer.concat([head, ...block])));
  }
  fs.writeFileSync(out, Buffer.concat(parts));
}
console.log(d);
