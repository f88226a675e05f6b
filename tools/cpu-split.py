#!/usr/bin/env python3
# CPU time of a command and of each child process it starts (a provider plugin, say), sampled
# from /proc while it runs: `tools/cpu-split.py ferro plan -input=false` tells how much of a
# run is ferro's own work and how much the provider's.
import subprocess, sys, time, os
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
tick = os.sysconf('SC_CLK_TCK')
seen = {}
def cpu(pid):
    try:
        f = open(f'/proc/{pid}/stat').read().rsplit(')',1)[1].split()
        return (int(f[11])+int(f[12]))/tick, open(f'/proc/{pid}/comm').read().strip()
    except Exception: return None
def kids(pid):
    out=[]
    try:
        for t in os.listdir(f'/proc/{pid}/task'):
            out += open(f'/proc/{pid}/task/{t}/children').read().split()
    except Exception: pass
    return out
t0=time.time()
while p.poll() is None:
    for pid in [p.pid] + kids(p.pid):
        c = cpu(pid)
        if c: seen[pid]=c
    time.sleep(0.02)
print(f"wall {time.time()-t0:.2f}s")
for pid,(c,n) in seen.items(): print(pid, n, f"{c:.2f}s")
