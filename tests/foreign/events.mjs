// The event types of docs/log-format.md: per game, in code order from 2, each with its kind
// and its fields in record order. A field the doc says may be left out is read as null
// unless DEFAULTS names another default.
const shared = { pay: ["auto", "src", "dst", "amount", "why"], end: ["auto", "reason", "balances", "pot"],
  forfeit: ["meta", "seat", "reason"] };
export const GAMES = {
  dare: { deal: ["chance", "round", "dealer", "field", "hands"], lay: ["action", "seat", "sets"],
    show: ["chance", "seat", "cards"], pay: shared.pay, result: ["auto", "round", "reason", "winners", "dealer"],
    end: shared.end, forfeit: shared.forfeit },
  "kazu-tori": { deal: ["chance", "sizes", "piles"], shuffle: ["chance", "seats", "piles"], flip: ["action", "seat", "card"],
    claim: ["action", "seat"], pass: ["action", "seat"], stop: ["action", "seat"], race: ["chance", "draws"],
    penalty: ["auto", "seat", "to"], handout: ["auto", "seat", "jizo", "to"], return: ["auto", "counts"],
    score: ["auto", "reason", "seat", "cards", "winners"], pay: shared.pay, end: shared.end, forfeit: shared.forfeit },
  yatchaba: { deal: ["chance", "game", "round", "guesser", "cards"], guess: ["action", "seat", "months"],
    bet: ["action", "seat", "amount"], pass: ["action", "seat"], continue: ["action", "seat"], stop: ["action", "seat"],
    reveal: ["chance", "months", "cards"], result: ["auto", "game", "round", "guesser", "right", "next"],
    pay: shared.pay, gameend: ["auto", "game", "winner", "carry", "dealer"], end: shared.end, forfeit: shared.forfeit },
  "uno-dare": { deal: ["chance", "round", "dealer", "up", "hands", "pile"], play: ["action", "seat", "card", "color", "uno"],
    draw: ["action", "seat"], keep: ["action", "seat"], name: ["action", "seat", "color"], answer: ["action", "seat", "answer"],
    uno: ["action", "seat"], catch: ["action", "seat", "target"], pass: ["action", "seat"], race: ["chance", "draws"],
    reshuffle: ["chance", "size", "pile"], penalty: ["auto", "seat", "count", "why"], show: ["chance", "seat", "cards"],
    score: ["auto", "round", "winner", "hands"], end: shared.end, forfeit: shared.forfeit },
  "kabu-tsukuri": { deal: ["chance", "hand", "dealer", "hands", "rest"], arrange: ["action", "seat", "rows", "aside"],
    bet: ["action", "seat"], stakes: ["auto", "row", "amount"], turn: ["chance", "row", "rows"],
    show: ["chance", "seat", "cards"], result: ["auto", "hand", "row", "best", "amount"], end: shared.end, forfeit: shared.forfeit },
};
// Defaults other than null (docs/log-format.md, The binary encoding).
export const DEFAULTS = { why: "", pot: 0, uno: false, aside: [] };

export function codeOf(game, type) {
  if (type === "undo") return 1;
  const i = Object.keys(GAMES[game]).indexOf(type);
  if (i < 0) throw new Error(`${game} has no event ${type}`);
  return i + 2;
}
// Is this event (JSON form) stored in the binary encoding, and as what record?
export function recordOf(game, mode, ev, dt) {
  const time = dt === undefined ? [] : [dt];
  if (ev.e === "undo") return [1, ...time];
  const spec = GAMES[game][ev.e];
  const kind = spec[0];
  if (ev.e === "race" && mode === "seeded") return [0, ...time];
  if (kind === "auto" || (kind === "chance" && mode === "seeded")) return null;
  const fields = spec.slice(1).map((f) => (f in ev ? ev[f] : f in DEFAULTS ? DEFAULTS[f] : null));
  return [codeOf(game, ev.e), ...time, ...fields];
}
