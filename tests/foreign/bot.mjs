// A bot program for kabucli written from docs/bots.md alone: node tests/foreign/bot.mjs [MODE]
// Plays the first legal move; with legal [] (Kabu-Tsukuri's rows) lays its cards in order.
// MODE misbehaves on purpose: wrong (an illegal move), garbage, slow (sleeps past any limit),
// crash (throws), exit (exits before answering), twice (two lines to one turn), noexit
// (never exits after the end). BOT_TRACE=FILE appends every message received to FILE.
import fs from "node:fs";
import readline from "node:readline";

const mode = process.argv[2] || "ok";
const trace = process.env.BOT_TRACE;
const rl = readline.createInterface({ input: process.stdin });
let turns = 0;
const say = (line) => process.stdout.write(line + "\n");

function rows(cards) {
  const c = cards.map(Number).sort((a, b) => a - b);
  const r = [c.slice(0, 3), c.slice(3, 6), c.slice(6, 9)].map((x) => x.join("-")).join(" ");
  return c.length > 9 ? `${r} aside ${c[9]}` : r;
}

rl.on("line", (line) => {
  if (trace) fs.appendFileSync(trace, line + "\n");
  const msg = JSON.parse(line);
  if (msg.type !== "turn") return;
  turns += 1;
  if (mode === "crash" && turns === 2) throw new Error("the bot crashed on purpose");
  if (mode === "exit" && turns === 2) process.exit(3);
  if (mode === "slow" && turns === 2) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000); }
  if (mode === "wrong" && turns === 2) return say(process.env.BOT_WRONG || "p9 sets 1-1-1");
  if (mode === "garbage" && turns === 2) return say("hello");
  const move = msg.legal.length ? msg.legal[0] : rows(msg.state.cards[`p${msg.seat}`]);
  // twice: both lines in one write, so they reach kabucli together (written apart, the second
  // may come after kabucli asks the next turn, and then reads as that turn's answer)
  say(mode === "twice" && turns === 2 ? `${move}\n${move}` : move);
});
rl.on("close", () => {
  if (mode === "noexit") setInterval(() => {}, 1000);
});
