// node tests/foreign/jsonl_digest.mjs FILE.jsonl RULE,RULE,...: the digest of a JSON Lines log,
// from its input records as the binary encoding would hold them.
import fs from "node:fs";
import { encode, digest } from "./kbl.mjs";
import { recordOf } from "./events.mjs";

const [file, order] = process.argv.slice(2);
const lines = fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim());
const toMap = (o) => (Array.isArray(o) ? o.map(toMap) : o && typeof o === "object" ? new Map(Object.entries(o).map(([k, v]) => [k, toMap(v)])) : o);
const header = toMap(JSON.parse(lines[0]));
const game = header.get("game"), mode = header.get("mode");
let last = header.get("clock");
const raws = [];
for (const line of lines.slice(1)) {
  const ev = JSON.parse(line);
  let dt;
  if (last !== null && "t" in ev) { dt = ev.t - last; last = ev.t; }
  const rec = recordOf(game, mode, ev, dt);
  if (rec) raws.push(encode(rec));
}
console.log(digest(header, raws, order ? order.split(",") : null));
