package dev.relaycp.bench;

import dev.relaycp.cli.ExitCodes;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code relaycp bench}: benchmarks of relaycp's own parts. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmarks of relaycp's parts.",
    subcommands = BenchCommand.Hop.class)
public final class BenchCommand {

  /** {@code relaycp bench hop}: one relay hop, memory to memory, on loopback. */
  @Command(name = "hop", mixinStandardHelpOptions = true,
      description = "Sends DATA frames (CRC32C each) through one loopback hop with the relay's "
          + "codecs and back-pressure, memory to memory, and prints MB/s (10^6 bytes/s).")
  static final class Hop implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--bytes", defaultValue = "4000000000", paramLabel = "BYTES",
        description = "Bytes to send (default: ${DEFAULT-VALUE}).")
    long bytes;

    @Option(names = "--frame-bytes", defaultValue = "262144", paramLabel = "BYTES",
        description = "Payload bytes per frame (default: ${DEFAULT-VALUE}).")
    int frameBytes;

    @Option(names = "--runs", defaultValue = "3", paramLabel = "N",
        description = "Repetitions; the first warms the JIT (default: ${DEFAULT-VALUE}).")
    int runs;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      for (int run = 1; run <= runs; run++) {
        RelayHopBenchmark.Result result = RelayHopBenchmark.run(bytes, frameBytes);
        out.printf(Locale.ROOT, "run %d: %d bytes in %.2f s = %.1f MB/s (frames of %d bytes, CRC32C)%n",
            run, result.bytes(), result.seconds(), result.megabytesPerSecond(), frameBytes);
        out.flush();
      }
      return ExitCodes.OK;
    }
  }
}
