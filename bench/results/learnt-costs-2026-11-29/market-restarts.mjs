import WebSocket from '/work/main/node_modules/ws/index.js';
const port = Number(process.argv[2]); const secs = Number(process.argv[3] ?? 6);
const markets = [['BTS','XBTC'],['BTS','XEUR'],['BTS','XUSD'],['BTS','SCNY'],['BTS','SUSD']];
const bodies = [];
for (const [b,q] of markets) for (const [x,y] of [[b,q],[q,b]]) {
  bodies.push(['get_order_book',[x,y,50]], ['get_order_book',[x,y,50]], ['get_ticker',[x,y]], ['get_ticker',[x,y]]);
}
const n = bodies.length; for (let i = 0; i < n / 4; i++) for (const s of ['SCNY','SUSD']) bodies.push(['get_call_orders',[s,50]]);
let done = 0, errs = 0, id = 0;
const end = Date.now() + secs*1000;
await Promise.all(Array.from({length: 64}, () => new Promise((res) => {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
  const send = () => { const [m,p] = bodies[(id++) % bodies.length]; ws.send(JSON.stringify({id: id, method: 'call', params: ['database', m, p]})); };
  ws.on('open', () => { send(); send(); });
  ws.on('message', (d) => { done++; if (String(d).includes('"error"')) errs++; if (Date.now() < end) send(); else { ws.close(); res(); } });
  ws.on('error', res);
})));
console.log('calls', done, 'errors', errs, 'per s', Math.round(done/secs));
