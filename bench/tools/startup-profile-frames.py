#!/usr/bin/env python3
"""Where a JVM's start-up CPU went, by code: an async-profiler CPU profile in collapsed form
(the same files startup-profile-categories.py reads), its samples grouped by the deepest
relaycp frame of each stack and the first library frame called from it, the JIT compiler
threads counted apart. Several files are summed (e.g. the six relay containers of one copy).

    python3 bench/tools/startup-profile-frames.py F.collapsed [F.collapsed ...] [--top N]
"""
import collections
import sys

# Frames of the JVM and the JDK, skipped when naming the library code a relaycp frame called.
RUNTIME = ("java/", "jdk/", "sun/", "Interpreter", "call_stub", "JavaCalls", "[unknown]", "JVM_",
           "Java_", "SystemDictionary", "InstanceKlass", "LinkResolver", "ClassFileParser",
           "ClassLoader::", "Runtime1", "SharedRuntime", "Bytecode", "InterpreterRuntime",
           "ConstantPool", "Method", "Klass", "MHN_", "Reflection", "os::", "__", "Unsafe",
           "jni_", "JNI")


def frames(paths):
    counts = collections.Counter()
    total = jit = 0
    for path in paths:
        with open(path) as profile:
            for line in profile:
                stack, _, samples = line.rstrip("\n").rpartition(" ")
                stack_frames = stack.split(";")
                n = int(samples)
                total += n
                if stack_frames[0] == "clone3" and any("Compile" in x for x in stack_frames):
                    jit += n
                    continue
                ours = [i for i, x in enumerate(stack_frames) if x.startswith("dev/relaycp")]
                if not ours:
                    caller = stack_frames[1] if len(stack_frames) > 1 else stack_frames[0]
                    counts["(no relaycp frame) " + caller] += n
                    continue
                deepest = ours[-1]
                called = [x for x in stack_frames[deepest + 1:] if not x.startswith(RUNTIME)]
                name = stack_frames[deepest].rsplit("/", 1)[-1]
                counts[name + " > " + (called[0] if called else "")] += n
    return counts, total, jit


def main(arguments):
    top = 25
    if "--top" in arguments:
        at = arguments.index("--top")
        top = int(arguments[at + 1])
        arguments = arguments[:at] + arguments[at + 2:]
    counts, total, jit = frames(arguments)
    print(f"{len(arguments)} profiles, {total} samples, of them JIT compiler threads {jit}")
    for name, samples in counts.most_common(top):
        print(f"{samples:7d}  {name[:160]}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
