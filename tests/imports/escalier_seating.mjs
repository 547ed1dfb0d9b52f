// Writes the Escalier seating fixtures with Escalier's own code (model.js, export.js, share.js of
// mayerwin/Escalier-Oh-Hell-Score-Keeper at 0abe2ab), so they are what the app exports, not a
// guess. Run from a checkout of it:  node /path/to/escalier_seating.mjs OUT_DIR
// A five-player club night on a staircase 1..7: Eva joins after round 2 with 30 carried in
// (addPlayer marks the rounds played before her out), Dan sits round 3 out and deals it (the app
// passes the deal to players sitting out), round 4's dealer is pinned to Anna, Cara withdraws
// after round 5 (setWithdrawn: out of every round still to play) and is dealt round 6 all the
// same; banFrom 2: the last bidder may not make the bids add up from two cards on.
import { writeFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const src = (name) => pathToFileURL(resolve('src', name)).href;
const M = await import(src('model.js'));
const { gameToCsv, gameToJson } = await import(src('export.js'));
const { packGame, bytesToBase64Url } = await import(src('share.js'));
const { setLanguage } = await import(src('i18n.js'));

const out = process.argv[2] || '.';
const game = M.createGame({
  name: 'Club night',
  players: ['Anna', 'Ben', 'Cara', 'Dan'].map((name) => ({ name })),
  cfg: { ptsBid: 10, ptsTrick: 5, ptsMiss: 5, strict: false, banFrom: 2 },
  plan: [1, 2, 3, 4, 5, 6, 7],
});
game.id = 'g_mjclub7seat01';
game.created = Date.parse('2025-12-12T19:04:11.512Z');
const id = (name) => game.players.find((p) => p.name === name).id;
M.setDealer(game, 0, id('Ben'));

function play(index, bids, tricks) {
  const round = game.rounds[index];
  round.phase = M.PHASE.BIDDING;
  for (const [name, bid] of Object.entries(bids)) round.entries[id(name)].bid = bid;
  const state = M.bidState(game, round);
  if (!state.ok) throw new Error(`round ${index + 1}: bids ${JSON.stringify(state)}`);
  round.phase = M.PHASE.TRICKS;
  for (const [name, took] of Object.entries(tricks)) round.entries[id(name)].tricks = took;
  if (!M.trickState(game, round).ok) throw new Error(`round ${index + 1}: tricks`);
  round.order = M.bidOrder(game, round);
  round.recorded = true;
  round.phase = M.PHASE.DONE;
  M.normalizeDealers(game);
}

play(0, { Anna: 0, Ben: 1, Cara: 0, Dan: 0 }, { Anna: 0, Ben: 1, Cara: 0, Dan: 0 });
play(1, { Anna: 1, Ben: 0, Cara: 0, Dan: 0 }, { Anna: 1, Ben: 0, Cara: 1, Dan: 0 });
M.addPlayer(game, 'Eva', { carryIn: 30 });
game.rounds[2].entries[id('Dan')].out = true;
play(2, { Anna: 1, Ben: 1, Cara: 0, Eva: 0 }, { Anna: 1, Ben: 2, Cara: 0, Eva: 0 });
M.setDealer(game, 3, id('Anna'));
play(3, { Anna: 1, Ben: 1, Cara: 0, Dan: 1, Eva: 0 }, { Anna: 1, Ben: 1, Cara: 1, Dan: 1, Eva: 0 });
play(4, { Anna: 1, Ben: 2, Cara: 1, Dan: 0, Eva: 0 }, { Anna: 1, Ben: 2, Cara: 1, Dan: 0, Eva: 1 });
M.setWithdrawn(game, id('Cara'), true);
play(5, { Anna: 2, Ben: 1, Dan: 2, Eva: 2 }, { Anna: 2, Ben: 1, Dan: 2, Eva: 1 });
play(6, { Anna: 3, Ben: 0, Dan: 2, Eva: 1 }, { Anna: 3, Ben: 1, Dan: 2, Eva: 1 });
game.finished = true;
game.updated = Date.parse('2025-12-12T21:47:30.020Z');

const json = JSON.parse(gameToJson(game));
json.exported = '2025-12-12T21:48:02.377Z';
writeFileSync(join(out, 'escalier-seating.json'), `${JSON.stringify(json, null, 2)}`);
writeFileSync(join(out, 'escalier-seating.csv'), gameToCsv(game));
setLanguage('de');
writeFileSync(join(out, 'escalier-seating-de.csv'), gameToCsv(game));
const packed = new TextEncoder().encode(JSON.stringify(packGame(game)));
writeFileSync(join(out, 'escalier-seating-link.txt'),
  `https://mayerwin.github.io/Escalier-Oh-Hell-Score-Keeper/#g=A${bytesToBase64Url(deflateRawSync(packed))}\n`);
