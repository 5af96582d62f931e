import WebSocket from '/work/main/node_modules/ws/index.js';
const port = Number(process.argv[2]); const secs = Number(process.argv[3] ?? 6); const acct = process.argv[4] ?? 'exchange-1'; const ops = Number(process.argv[5] ?? 5000);
let done = 0, id = 0; const t0 = Date.now(); const end = t0 + secs*1000;
await Promise.all(Array.from({length: 32}, () => new Promise((res) => {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
  const send = () => { const s = 100 + ((id++ * 104729) % Math.max(1, ops - 100)); ws.send(JSON.stringify({id, method:'call', params:['history','get_relative_account_history',[acct,0,100,s]]})); };
  ws.on('open', () => { send(); send(); });
  ws.on('message', () => { done++; if (Date.now() < end) send(); else { ws.close(); res(); } });
  ws.on('error', (e) => { console.error(e); res(); });
})));
console.log('history calls', done, Math.round(done/((Date.now()-t0)/1000)), '/s');
