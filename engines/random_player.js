#!/usr/bin/env node
// js-random: an engine in JavaScript (Node, no packages) that plays a legal move chosen
// uniformly at random. It knows no rules: it declares "feature legalmoves", so the arbiter
// lists the legal moves in every "go" line (SPEC.md section 6), and so it plays every game
// it declares with "feature games". At a simultaneous node (Silver & Gold Pyramids) the
// listed moves are its own seat's, so it needs nothing of the position at all.
// Option Seed (spin) makes its games repeatable: the generator is reseeded at every newgame.
"use strict";

const readline = require("readline");

let seed = 0;
let state = 0;

// mulberry32: a small seeded generator, so games repeat with the same Seed.
function next() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function send(line) {
  process.stdout.write(line + "\n");
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });

rl.on("line", (raw) => {
  const line = raw.replace(/\r$/, "");
  const words = line.split(" ");
  switch (words[0]) {
    case "sneferu":
      send("id name js-random");
      send("id author the sneferu authors");
      send("option name Seed type spin default 0 min 0 max 2147483647");
      send("feature legalmoves");
      send("feature games sneferu imhotep silver-gold akropolis");
      send("sneferuok");
      break;
    case "setoption":
      // setoption name Seed value N
      if (words[2] === "Seed" && words[3] === "value") seed = parseInt(words[4], 10) >>> 0;
      break;
    case "newgame":
      state = seed;
      break;
    case "isready":
      send("readyok");
      break;
    case "go": {
      // go ... legalmoves MOVE ; MOVE ; ...
      const at = line.indexOf(" legalmoves ");
      const moves = line.slice(at + " legalmoves ".length).split(" ; ");
      send("move " + moves[Math.floor(next() * moves.length)]);
      break;
    }
    case "quit":
      process.exit(0);
      break;
    default:
      break; // position, gameover and unknown commands: nothing to do
  }
});

rl.on("close", () => process.exit(0));
