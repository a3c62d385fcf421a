#!/usr/bin/env node
// A Node.js client of `sneferu serve` (no npm dependencies): it opens a game and plays it
// against itself: the server draws the chance events, the client picks each move from
// the legal list. At the end it prints the ranking.
//
//   node examples/node_client.js [SERVER COMMAND...]
//   node examples/node_client.js ws://HOST:PORT
//
// The server command comes from the arguments, else from $SNEFERU_SERVE, else it is
// `sneferu serve`; for example: node examples/node_client.js python3 -m sneferu_cli serve.
// A ws:// address instead reaches a server already running as `sneferu serve --listen
// PORT --json` (SPEC.md 10.12), over a WebSocket written here from RFC 6455 with Node's
// own net and crypto modules.
// The client speaks the JSON mode (SPEC.md, section 10): one JSON object a line each way.
'use strict';

const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const net = require('node:net');
const readline = require('node:readline');

const args = process.argv.slice(2);
const pending = new Map(); // request id -> callback for its reply
let nextId = 1;

function fail(message) {
  console.error(`node_client: ${message}`);
  process.exit(1);
}

function onReply(line) {
  if (!line.trim()) return;
  const reply = JSON.parse(line);
  const done = pending.get(reply.id);
  pending.delete(reply.id);
  done(reply);
}

// The transport: send(text) writes one request line; replies go to onReply.
let send;
let finish = () => {};
if (args.length === 1 && args[0].startsWith('ws://')) {
  ({ send, finish } = webSocket(new URL(args[0])));
} else {
  const command = args.length > 1 ? args
    : (args[0] || process.env.SNEFERU_SERVE || 'sneferu serve').trim().split(/\s+/);
  const server = spawn(command[0], [...command.slice(1), '--json'],
    { stdio: ['pipe', 'pipe', 'inherit'] });
  server.on('error', (err) => fail(`cannot start ${command.join(' ')}: ${err.message}`));
  server.on('exit', (code) => {
    if (pending.size) fail(`the server exited (${code}) with requests unanswered`);
  });
  readline.createInterface({ input: server.stdout }).on('line', onReply);
  send = (text) => server.stdin.write(text + '\n');
}

// A WebSocket client (RFC 6455): the opening handshake, then masked text frames out and
// the server's frames in (text, ping answered with pong, close); each text message holds
// reply lines.
function webSocket(url) {
  const key = crypto.randomBytes(16).toString('base64');
  const accept = crypto.createHash('sha1')
    .update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  const socket = net.connect(Number(url.port || 80), url.hostname);
  let buffer = Buffer.alloc(0);
  let open = false;
  let message = [];
  const queue = [];
  let closing = false;
  socket.on('error', (err) => closing || fail(`cannot reach ${url.href}: ${err.message}`));
  socket.on('close', () => {
    if (pending.size) fail('the server closed the connection with requests unanswered');
  });
  socket.on('connect', () => socket.write(
    `GET ${url.pathname || '/'} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\n` +
    `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`));
  function frame(opcode, payload) {
    const mask = crypto.randomBytes(4);
    const n = payload.length;
    const head = n < 126 ? Buffer.from([0x80 | opcode, 0x80 | n])
      : n < 65536 ? Buffer.from([0x80 | opcode, 0x80 | 126, n >> 8, n & 255])
        : Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | 127]),
          (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(n)); return b; })()]);
    const body = Buffer.from(payload);
    for (let i = 0; i < body.length; i++) body[i] ^= mask[i % 4];
    socket.write(Buffer.concat([head, mask, body]));
  }
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (!open) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString();
      if (!/^HTTP\/1\.1 101/.test(head) || !head.includes(accept)) {
        fail(`not a WebSocket upgrade: ${head.split('\r\n')[0]}`);
      }
      buffer = buffer.subarray(end + 4);
      open = true;
      queue.splice(0).forEach((text) => frame(0x1, Buffer.from(text)));
    }
    while (buffer.length >= 2) {
      let n = buffer[1] & 127;
      let at = 2;
      if (n === 126) { if (buffer.length < 4) return; n = buffer.readUInt16BE(2); at = 4; }
      if (n === 127) { if (buffer.length < 10) return; n = Number(buffer.readBigUInt64BE(2)); at = 10; }
      if (buffer.length < at + n) return;
      const fin = buffer[0] & 0x80;
      const opcode = buffer[0] & 0x0f;
      const payload = buffer.subarray(at, at + n);
      buffer = buffer.subarray(at + n);
      if (opcode === 0x9) frame(0xa, payload); // ping: pong
      else if (opcode === 0x8) socket.end();
      else if (opcode === 0x1 || opcode === 0x2 || opcode === 0x0) {
        message.push(Buffer.from(payload));
        if (fin) {
          Buffer.concat(message).toString().split('\n').forEach(onReply);
          message = [];
        }
      }
    }
  });
  return {
    send: (text) => (open ? frame(0x1, Buffer.from(text)) : queue.push(text)),
    finish: () => { closing = true; socket.end(); },
  };
}

// Send one request; resolves with its result, rejects with the server's error message.
function ask(request) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, (reply) => (reply.ok ? resolve(reply.result)
      : reject(new Error(`${request.command}: ${reply.error}`))));
    send(JSON.stringify({ id, ...request }));
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
    console.log(`${r.rank}. seat ${r.seat}: ${r.scores.stones} stones, ${r.scores.food} food`);
  }
  await ask({ command: 'close', game });
  await ask({ command: 'quit' });
  finish();
}

main().catch((err) => fail(err.message));
