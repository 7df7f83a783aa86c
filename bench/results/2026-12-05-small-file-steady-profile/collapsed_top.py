# A collapsed-stack file's samples by thread and its N most frequent frames, inclusive.
#   python3 collapsed_top.py FILE.collapsed [N]
import sys,collections,re
f=sys.argv[1]
thr=collections.Counter(); inc=collections.Counter(); tot=0
pats=sys.argv[2:] 
for l in open(f):
    st,n=l.rstrip().rsplit(' ',1); n=int(n); tot+=n
    fr=st.split(';')
    t=re.sub(r'\d+','N',fr[0]); thr[t]+=n
    seen=set()
    for x in fr[1:]:
        k=x
        if k not in seen: seen.add(k); inc[k]+=n
print('total ms',tot)
for t,c in thr.most_common(20): print(f'{c:7d} {100*c/tot:5.1f}% {t}')
print('--- inclusive')
for k,c in inc.most_common(int(pats[0]) if pats else 60): print(f'{c:7d} {100*c/tot:5.1f}% {k[:150]}')
