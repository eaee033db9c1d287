// A bot program for kabucli that plays each game by what docs/bots.md says a bot is sent,
// written from the docs alone: node tests/foreign/strategy.mjs
// It uses the state's documented keys, so it beats random only while they mean what the doc
// says: Dare: `hands`, `reference` (the sets are checked against it), the legal sets; Kazu-Tori:
// `phase`, `takeable`, `claimed`; Yatchaba: `phase`, `face_up`, `guesser` (a seat number),
// `passes`, `may_guess`, `next_amount`; Kabu-Tsukuri: `cards` (its own as a list of months,
// the others' as counts); Uno Dare: `phase`, `hands`, `cards`, `uno_missing`, `turn` (a "pN"
// string), `direction`.
import readline from "node:readline";

const say = (line) => process.stdout.write(line + "\n");
const digit = (cards) => cards.reduce((a, b) => a + b, 0) % 10;

function dare(m, st, me) {
  // Dare if it can, else the two sets that keep the highest ones digit, else pass
  const hand = st.hands[me].map(Number);
  let best = "pass", score = -1;
  for (const move of m.legal) {
    const words = move.split(" ");
    if (words[1] !== "sets") continue;
    const sets = words.slice(2).map((s) => s.split("-").map(Number));
    for (const set of sets) {
      if (digit(set) !== st.reference) throw new Error(`${set} does not add up to the reference`);
    }
    if (sets.length === 3) return move;
    if (sets.length !== 2) continue;
    const kept = hand.slice();
    for (const c of sets.flat()) kept.splice(kept.indexOf(c), 1);
    if (kept.length !== 3) throw new Error(`hand ${hand} lacks the cards of ${move}`);
    if (digit(kept) > score) { score = digit(kept); best = move; }
  }
  return best;
}

function kazuTori(m, st, me) {
  // claim exactly the cards a claim takes, once; never stop
  if (st.phase === "window" && st.takeable && !st.claimed.includes(me)) return "claim";
  return m.legal.includes(`${me} flip`) ? "flip" : "pass";
}

const C = (n, k) => [1, n, n * (n - 1) / 2, n * (n - 1) * (n - 2) / 6][k];

function yatchaba(m, st, me) {
  if (st.phase === "guess") {  // a most likely multiset of months, given the cards face up
    const left = Array(13).fill(4);
    for (const card of st.face_up) left[parseInt(card, 10)] -= 1;
    let best = null, ways = -1;
    for (let a = 1; a <= 12; a++) for (let b = a; b <= 12; b++) for (let c = b; c <= 12; c++) {
      const k = {};
      for (const x of [a, b, c]) k[x] = (k[x] || 0) + 1;
      let w = 1;
      for (const x in k) w *= left[x] < k[x] ? 0 : C(left[x], k[x]);
      if (w > ways) { ways = w; best = [a, b, c]; }
    }
    return "guess " + best.join(" ");
  }
  if (st.phase === "bet") {  // the guesser must bet; the others pass while it is cheap
    if (st.guesser === m.seat) return "bet";
    const keepsTurn = st.may_guess.includes(me) && st.passes[me] >= 2;
    return keepsTurn && st.next_amount <= 3 ? "bet" : "pass";
  }
  return "stop";
}

function strength(row) {  // ranking extended, the row in laid order: higher is stronger
  const s = row.slice().sort((a, b) => a - b), key = s.join("-");
  const named = ["1-10-10", "3-3-3", "", "3-5-7", "1-2-3", "4-7-9", "3-7-10"];
  if (s[0] === s[1] && s[1] === s[2] && key !== "3-3-3") return 980;
  if (named.includes(key)) return 1000 - named.indexOf(key) * 10;
  if (row[1] === row[0] + 1 && row[2] === row[1] + 1) return 920 + digit(row);
  if (row[1] === row[0] - 1 && row[2] === row[1] - 1) return 910 + digit(row);
  return digit(row);
}

function kabuTsukuri(m, st, me) {
  // greedy: the strongest row of three first, then the strongest of the rest, then the rest;
  // the weakest row is laid first (row 3's pot is the largest it can win), and a tenth card
  // that no row needs is set aside
  let cards = st.cards[me].map(Number);
  const rows = [];
  for (let r = 0; r < 2; r++) {
    let best = null, bs = -1;
    for (let i = 0; i < cards.length; i++) for (let j = 0; j < cards.length; j++) {
      for (let k = 0; k < cards.length; k++) {
        if (i === j || j === k || i === k) continue;
        const s = strength([cards[i], cards[j], cards[k]]);
        if (s > bs) { bs = s; best = [i, j, k]; }
      }
    }
    rows.push([best.map((i) => cards[i]), bs]);
    cards = cards.filter((_, i) => !best.includes(i));
  }
  let last = null, ls = -1, aside = null;
  for (let a = 0; a < cards.length; a++) {
    if (cards.length === 3 && a > 0) break;
    const rest = cards.length === 4 ? cards.filter((_, i) => i !== a) : cards;
    for (const o of [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]) {
      const s = strength(o.map((i) => rest[i]));
      if (s > ls) { ls = s; last = o.map((i) => rest[i]); aside = cards.length === 4 ? cards[a] : null; }
    }
  }
  rows.push([last, ls]);
  rows.sort((x, y) => x[1] - y[1]);
  const laid = rows.map(([r]) => r.join("-")).join(" ");
  return aside === null ? laid : `${laid} aside ${aside}`;
}

const COLORS = { R: "red", Y: "yellow", G: "green", B: "blue" };

function unoDare(m, st, me) {
  const legal = m.legal.map((x) => x.split(" ").slice(1).join(" "));
  if (st.uno_missing && legal.includes(`catch ${st.uno_missing}`)) return `catch ${st.uno_missing}`;
  if (st.turn !== me) return "pass";  // a catch window at another's move: nothing to catch
  const hand = st.hands[me];
  const count = {};
  for (const c of hand) if (!c.startsWith("WD")) count[c[0]] = (count[c[0]] || 0) + 1;
  const most = Object.keys(COLORS).sort((a, b) => (count[b] || 0) - (count[a] || 0))[0];
  if (st.phase === "name") return `color ${COLORS[most]}`;
  if (st.phase === "hit") return "decline";
  if (st.phase === "verdict") return "failed";
  if (st.phase === "drawn") return legal.find((x) => x.startsWith("play") && x.endsWith(" uno") === (hand.length === 2)) || "keep";
  // a card of the color held most, highest first; Wild Dares last; UNO always called
  const seats = Object.keys(st.cards);
  const next = seats[(seats.indexOf(me) + (st.direction === "clockwise" ? 1 : seats.length - 1)) % seats.length];
  const rank = (c) => c.startsWith("WD") ? -100 : (c[0] === most ? 50 : 0) +
    (/^[RYGB]\d$/.test(c) ? Number(c[1]) : 20) + (st.cards[next] <= 2 && /^[RYGB](S|D\d)$/.test(c) ? 500 : 0);
  const plays = legal.filter((x) => x.startsWith("play ") && x.endsWith(" uno") === (hand.length === 2));
  if (!plays.length) return "draw";
  // legal names a Wild Dare's color already ('play WD9 red'): the color held most
  const value = (x) => rank(x.split(" ")[1]) + (x.split(" ")[2] === COLORS[most] ? 1 : 0);
  plays.sort((a, b) => value(b) - value(a));
  return plays[0];
}

const PLAY = { dare, "kazu-tori": kazuTori, yatchaba, "kabu-tsukuri": kabuTsukuri, "uno-dare": unoDare };

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.type !== "turn") return;
  say(PLAY[m.game](m, m.state, `p${m.seat}`));
});
