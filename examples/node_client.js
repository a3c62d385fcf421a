#!/usr/bin/env node
// A Node.js client of `sneferu serve` (no npm dependencies): it starts the server, opens
// a game and plays it against itself: the server draws the chance events, the client
// picks each move from the legal list. At the end it prints the ranking.
//
//   node examples/node_client.js [SERVER COMMAND...]
//
// The server command comes from the arguments, else from $SNEFERU_SERVE, else it is
// `sneferu serve`; for example: node examples/node_client.js python3 -m sneferu_cli serve
// The client speaks the JSON mode (SPEC.md, section 10): one JSON object a line each way.
'use strict';

const { spawn } = require('node:child_process');
const readline = require('node:readline');

const args = process.argv.slice(2);
const command = args.length > 1 ? args
  : (args[0] || process.env.SNEFERU_SERVE || 'sneferu serve').trim().split(/\s+/);

const server = spawn(command[0], [...command.slice(1), '--json'],
  { stdio: ['pipe', 'pipe', 'inherit'] });
const pending = new Map(); // request id -> callback for its reply
let nextId = 1;

function fail(message) {
  console.error(`node_client: ${message}`);
  process.exit(1);
}

server.on('error', (err) => fail(`cannot start ${command.join(' ')}: ${err.message}`));
server.on('exit', (code) => {
  if (pending.size) fail(`the server exited (${code}) with requests unanswered`);
});
readline.createInterface({ input: server.stdout }).on('line', (line) => {
  const reply = JSON.parse(line);
  const done = pending.get(reply.id);
  pending.delete(reply.id);
  done(reply);
});

// Send one request; resolves with its result, rejects with the server's error message.
function ask(request) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, (reply) => (reply.ok ? resolve(reply.result)
      : reject(new Error(`${request.command}: ${reply.error}`))));
    server.stdin.write(JSON.stringify({ id, ...request }) + '\n');
  });
}

// A small seeded generator (xorshift32), so that a game can be replayed.
let seed = Number(process.env.SEED || 7) >>> 0 || 7;
function pick(list) {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return list[seed % list.length];
}

async function main() {
  const { game } = await ask({ command: 'new', players: 3, seed });
  // An illegal request is an error reply; the server goes on serving.
  await ask({ command: 'play', game, move: '1.1 BT@1.1' }).then(
    () => fail('an illegal move was accepted'),
    (err) => console.log(`as expected, ${err.message}`));
  let turns = 0;
  for (;;) {
    await ask({ command: 'chance', game }); // the server draws with the game's seed
    const { moves } = await ask({ command: 'moves', game });
    if (moves.length === 0) break; // the game is over
    await ask({ command: 'play', game, move: pick(moves) });
    turns += 1;
  }
  const { state } = await ask({ command: 'state', game });
  const { ranking } = await ask({ command: 'ranking', game });
  console.log(`${turns} turns played, the game is ${state.turn.phase}`);
  for (const r of [...ranking].sort((a, b) => a.rank - b.rank)) {
    console.log(`${r.rank}. seat ${r.seat}: ${r.stones} stones, ${r.food} food`);
  }
  await ask({ command: 'close', game });
  await ask({ command: 'quit' });
}

main().catch((err) => fail(err.message));
