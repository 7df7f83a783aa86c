# The samples of an async-profiler JFR recording from a fraction of its samples on (0.6: the
# last 40%), as collapsed stacks with the thread first.
#   python3 jfr_window.py RECORDING.jfr FRACTION OUT.collapsed
import json,sys,subprocess,collections,re
f=sys.argv[1]; frac=float(sys.argv[2]) if len(sys.argv)>2 else 0.6
out=subprocess.run(['jfr','print','--json','--stack-depth','200','--events','jdk.ExecutionSample',f],capture_output=True,text=True).stdout
ev=json.loads(out)['recording']['events']
ts=sorted(e['values']['startTime'] for e in ev)
cut=ts[int(len(ts)*frac)]
lines=collections.Counter()
for e in ev:
    v=e['values']
    if v['startTime']<cut: continue
    t=(v.get('sampledThread') or {}).get('javaName') or (v.get('sampledThread') or {}).get('osName') or '?'
    fr=[x['method']['type']['name'].replace('.','/')+'.'+x['method']['name'] for x in (v['stackTrace'] or {}).get('frames',[])][::-1]
    lines['['+t+'];'+';'.join(fr)]+=1
with open(sys.argv[3],'w') as o:
    for k,c in lines.items(): o.write(k+' '+str(c)+'\n')
print(f, 'samples after cut', sum(lines.values()), 'of', len(ev))
