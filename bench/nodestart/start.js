// Times a start of `assent stdio --headless` to its answer to tools/list as
// Node starts an MCP server (child_process.spawn, which gives the child
// socket pairs for its stdio, not pipes), for each binary named, the
// binaries alternating order from round to round; prints each one's
// median of 41 starts.
//
//   go run ./bench/manytools 200 > /tmp/tools.json
//   node bench/nodestart/start.js /tmp/tools.json BIN [BIN...]
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [tools, ...bins] = process.argv.slice(2);
if (!tools || bins.length === 0) {
  console.error('usage: node start.js TOOLS.json BIN [BIN...]');
  process.exit(2);
}
const rounds = 41;
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'assent-nodestart-'));
const initialize = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"nodestart","version":"1"}}}\n';
const list = '{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n';

function start(bin, i) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(bin, ['stdio', '--headless', '--tools', tools, '--journal', path.join(home, 'journal-' + i)], {
      env: { PATH: process.env.PATH, HOME: home, XDG_STATE_HOME: path.join(home, 'state') },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let buf = '';
    let answers = 0;
    child.on('error', reject);
    child.stdin.write(initialize);
    child.stdout.on('data', (d) => {
      buf += d;
      for (let k; (k = buf.indexOf('\n')) >= 0; ) {
        buf = buf.slice(k + 1);
        answers++;
        if (answers === 1) child.stdin.write(list);
        if (answers === 2) {
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          child.stdin.end();
          child.on('exit', () => resolve(ms));
        }
      }
    });
  });
}

(async () => {
  const times = bins.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < bins.length; j++) {
      const b = r % 2 ? bins.length - 1 - j : j;
      times[b].push(await start(bins[b], b));
    }
  }
  bins.forEach((bin, b) => {
    const s = times[b].sort((x, y) => x - y);
    console.log(`${bin}: median ${s[(rounds - 1) / 2].toFixed(2)} ms of ${rounds} starts`);
  });
  fs.rmSync(home, { recursive: true, force: true });
})().catch((e) => { console.error(e); process.exit(1); });
