# Sorts collapsed stacks (async-profiler) into kinds of work, each sample to the first kind found
# on its stack, and prints each file's shares and its busiest threads.
#   python3 categories.py FILE.collapsed...
import sys,collections,re
cats=[
 ('jit-compile', ['CompileBroker','C1 CompilerThre']),
 ('gc/vm', ['VM Thread','GC Thread','VMThread']),
 ('classload', ['ClassLoader.loadClass','SystemDictionary::','ClassFileParser']),
 ('thread-start', ['Thread.start','JVM_StartThread']),
 ('hdfs.create', ['DFSClient.create','DistributedFileSystem.create','FileSystem.createFile','FSDataOutputStreamBuilder.build','HdfsDataOutputStreamBuilder.build']),
 ('hdfs.close', ['DFSOutputStream.close','DFSOutputStream.completeFile','FSDataOutputStream.close']),
 ('hdfs.checksum', ['getFileChecksum']),
 ('hdfs.setTimes', ['setTimes']),
 ('hdfs.open', ['DFSClient.open','DistributedFileSystem.open','DFSInputStream.<init>','openInfo']),
 ('hdfs.read', ['DFSInputStream.read','DFSInputStream.pread','BlockReader']),
 ('hdfs.write-data', ['FSOutputSummer','DFSOutputStream.write','IOUtils.copyBytes']),
 ('hdfs.DataStreamer', ['[DataStreamer']),
 ('hdfs.ResponseProcessor', ['[ResponseProcessor']),
 ('hdfs.IPC-threads', ['[IPC Client','[IPC Parameter']),
 ('ssl', ['SslHandler.unwrap','SslHandler.wrap','ReferenceCountedOpenSslEngine']),
 ('netty-other', ['io/netty']),
 ('relaycp', ['dev/relaycp']),
]
def cat(st):
    for name,keys in cats:
        for k in keys:
            if k in st: return name
    return 'other'
for f in sys.argv[1:]:
    c=collections.Counter(); tot=0; thr=collections.Counter()
    for l in open(f):
        st,n=l.rstrip().rsplit(' ',1); n=int(n); tot+=n
        c[cat(st)]+=n
        thr[re.sub(r'\d+','N',st.split(';')[0])[:60]]+=n
    print(f, 'total ms', tot)
    print('  ', ', '.join(f'{k} {100*v/tot:.1f}%' for k,v in c.most_common()))
    print('   threads:', ', '.join(f'{k} {100*v/tot:.1f}%' for k,v in thr.most_common(12)))
