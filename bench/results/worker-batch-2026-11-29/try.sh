#!/bin/bash
# usage: try.sh DIST_ROOT WORKERS [secs] [script] -> calls/s and µs/call per thread group
R=$1; W=$2; S=${3:-5}; SCRIPT=${4:-/tmp/s4/hist.mjs}
node $R/dist/src/cli.js serve --data-dir /work/main/bench/data/chain-quick --rpc-endpoint 127.0.0.1:18191 --workers $W --processes 1 --block-interval 0 --max-calls-per-second 0 > /tmp/s4/try-node.log 2>&1 &
P=$!
for i in $(seq 1 50); do curl -s -o /dev/null localhost:18191/ready && break; sleep 0.2; done; curl -s -o /dev/null localhost:18191/ready || { echo "node did not start"; tail -2 /tmp/s4/try-node.log; exit 1; }
if [ -n "$BATCH" ]; then for tid in $(grep -o '"tid":[0-9]*' /tmp/s4/try-node.log | cut -d: -f2); do chrt -b -p 0 $tid; done; fi
if [ -n "$FEBATCH" ]; then chrt -b -p 0 $P; fi
node $SCRIPT 18191 2 exchange-1 15203 >/dev/null
snap(){ for t in /proc/$P/task/*; do echo "$(basename $t) $(awk '{print $14+$15}' $t/stat)"; done | sort; }
csw(){ awk '/nonvoluntary_ctxt_switches/{n=$2} /^voluntary_ctxt_switches/{v=$2} END{print v, n}' /proc/$P/task/$P/status; }
for k in 1 2; do
  snap > /tmp/s4/a.txt; c0=$(csw)
  out=$(node $SCRIPT 18191 $S exchange-1 15203); n=$(echo $out | awk '{print $3}')
  snap > /tmp/s4/b.txt; c1=$(csw); echo "front end switches per 1000 calls: voluntary $(( ($(echo $c1|cut -d' ' -f1) - $(echo $c0|cut -d' ' -f1)) * 1000 / n )) preempted $(( ($(echo $c1|cut -d' ' -f2) - $(echo $c0|cut -d' ' -f2)) * 1000 / n ))"
  join /tmp/s4/a.txt /tmp/s4/b.txt | awk -v n=$n -v P=$P -v out="$out" '{d=($3-$2)*10000; if ($1==P) fe+=d; else if (d>0) { ws[++k]=d; tot+=d } } END { printf "%s  front %.1f µs  others:", out, fe/n; for (i=1;i<=k;i++) if (ws[i]/n>0.5) printf " %.1f", ws[i]/n; printf "  workers %.1f node total %.1f\n", tot/n, (fe+tot)/n }'
done
kill -INT $P; wait $P 2>/dev/null
