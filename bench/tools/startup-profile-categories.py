#!/usr/bin/env python3
"""Where a JVM's start-up CPU went, from an async-profiler CPU profile in collapsed form
(`-agentpath:libasyncProfiler.so=start,event=cpu,interval=1ms,file=F.collapsed,collapsed`):
the samples in each category, the first rule a stack matches, in the order below.

    python3 bench/tools/startup-profile-categories.py F.collapsed [F.collapsed ...]

async-profiler's jar for linux-x64 is on Maven Central
(tools.profiler:async-profiler:4.2:linux-x64); bench/lab.d/relay_start_cpu.sh takes the agent
among its JVM options.
"""
import collections
import sys

RULES = [
    ("JIT compiler threads", lambda fr: fr[0] == "clone3" and any("Compile" in x for x in fr)),
    ("GC threads", lambda fr: fr[0] == "clone3" and any("G1" in x or "GC" in x for x in fr)),
    ("signed-jar verification", lambda fr: any("JarVerifier" in x or "initializeVerifier" in x
                                               or "maybeInstantiateVerifier" in x for x in fr)),
    ("netty-tcnative loading", lambda fr: any("NativeLibraryLoader" in x for x in fr)),
    ("BouncyCastle (certificate)", lambda fr: any(x.startswith("org/bouncycastle")
                                                  or "selfSigned" in x for x in fr)),
    ("JSSE start (Netty SslUtils)", lambda fr: any("SslUtils.<clinit>" in x for x in fr)),
    ("log4j/SLF4J start", lambda fr: any("LoggerFactory.getILoggerFactory" in x for x in fr)),
    ("Hadoop configuration XML", lambda fr: any("Configuration.loadResource" in x
                                                or x.startswith("com/ctc/wstx") for x in fr)),
    ("picocli command model", lambda fr: any("picocli/CommandLine.<init>" in x for x in fr)),
    ("HDFS client", lambda fr: any("FileSystem.get" in x or "DFSClient" in x
                                   or "DistributedFileSystem" in x for x in fr)),
    ("UserGroupInformation", lambda fr: any("UserGroupInformation" in x for x in fr)),
    ("class loading from jars", lambda fr: any("defineClass1" in x or "ClassLoader.loadClass" in x
                                               for x in fr)),
    ("Netty", lambda fr: any(x.startswith("io/netty") for x in fr)),
    ("other", lambda fr: True),
]


def categories(path):
    counts = collections.Counter()
    with open(path) as profile:
        for line in profile:
            stack, _, samples = line.rstrip("\n").rpartition(" ")
            frames = stack.split(";")
            for name, matches in RULES:
                if matches(frames):
                    counts[name] += int(samples)
                    break
    return counts


def main(paths):
    for path in paths:
        counts = categories(path)
        total = sum(counts.values())
        print(f"{path}: {total} samples")
        for name, _ in RULES:
            if counts[name]:
                print(f"  {counts[name]:6d} {100 * counts[name] / total:5.1f}%  {name}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
