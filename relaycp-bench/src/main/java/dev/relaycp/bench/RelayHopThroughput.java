package dev.relaycp.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH: one relay hop on loopback, memory to memory ({@link RelayHopBenchmark.Hop}), on one warm
 * connection. Each operation sends {@link #TRANSFER_BYTES} in frames of {@code frameBytes};
 * MB/s is operations per second times {@link #TRANSFER_BYTES} / 10^6.
 * {@code bench/tools/relay-hop-vs-iperf3.sh} runs it beside iperf3's single-stream loopback
 * rate, measured in the same run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m"})
public class RelayHopThroughput {
  /** Bytes one operation sends. */
  public static final long TRANSFER_BYTES = 64L << 20;

  /** A DATA frame's payload: relaycp's default (RelaySettings.DEFAULT_DATA_FRAME_BYTES). */
  @Param({"262144"})
  public int frameBytes;

  private RelayHopBenchmark.Hop hop;

  @Setup(Level.Trial)
  public void open() throws InterruptedException {
    hop = RelayHopBenchmark.Hop.open(frameBytes);
  }

  @TearDown(Level.Trial)
  public void close() throws InterruptedException {
    hop.close();
  }

  @Benchmark
  public long transfer() throws Exception {
    return hop.transfer(TRANSFER_BYTES);
  }
}
