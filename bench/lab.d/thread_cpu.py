#!/usr/bin/env python3
"""CPU ticks of every process in the lab's namespaces, split by JVM thread kind (JIT compiler
threads, GC threads, the rest), once a second for SECONDS: t,namespace,compiler,gc,other
(cumulative clock ticks). Run beside `bench/lab run`: python3 bench/lab.d/thread_cpu.py 900 > cpu.csv"""
import os, sys, time
def kind(comm):
    if comm.startswith("C1 Comp") or comm.startswith("C2 Comp"): return 0
    if "GC" in comm or comm.startswith("G1"): return 1
    return 2
print("t,namespace,compiler,gc,other", flush=True)
end = time.time() + float(sys.argv[1])
while time.time() < end:
    t = time.time()
    names = {}
    for n in os.listdir("/run/netns") if os.path.isdir("/run/netns") else []:
        try: names[os.stat(f"/run/netns/{n}").st_ino] = n
        except OSError: pass
    acc = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit(): continue
        try:
            ino = os.stat(f"/proc/{pid}/ns/net").st_ino
            ns = names.get(ino)
            if not ns: continue
            a = acc.setdefault(ns, [0, 0, 0])
            for tid in os.listdir(f"/proc/{pid}/task"):
                s = open(f"/proc/{pid}/task/{tid}/stat").read()
                comm = s[s.index("(") + 1:s.rindex(")")]
                f = s[s.rindex(")") + 2:].split()
                a[kind(comm)] += int(f[11]) + int(f[12])
        except (OSError, ValueError):
            pass
    for ns, a in sorted(acc.items()):
        print(f"{t:.2f},{ns},{a[0]},{a[1]},{a[2]}", flush=True)
    time.sleep(max(0, 1 - (time.time() - t)))
