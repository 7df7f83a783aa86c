package dev.relaycp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.cli.RelayCpCommand;
import dev.relaycp.cli.RelayCpTool;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SmallFileCpuTest {
  @Test
  void statFieldsAreCountedPastACommandNameWithSpacesAndParentheses() {
    String[] fields = SmallFileCpu.statFields(
        "4242 (a (b) c) S 1 4242 4242 0 -1 4194304 10 0 0 0 123 45 6 7 20 0 1 0 99\n");

    assertThat(fields[0]).isEqualTo("4242");
    assertThat(fields[1]).isEqualTo("a (b) c");
    assertThat(fields[2]).isEqualTo("S");
    assertThat(fields[13]).isEqualTo("123");
    assertThat(fields[14]).isEqualTo("45");
    assertThat(fields[15]).isEqualTo("6");
    assertThat(fields[16]).isEqualTo("7");
  }

  @Test
  void aSmallRunCopiesEveryFileAndCountsTheDriversAndTheRelaysCpu() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true), BenchMain::addCommands);

    int exitCode = commandLine.execute("bench", "small-files", "--files", "12", "--file-bytes",
        "1000", "--pairs", "1", "--datanodes", "1", "--runs", "1");

    assertThat(exitCode).as(err.toString()).isZero();
    assertThat(out.toString()).matches("(?s)run 1: 12 files, 12000 bytes in [0-9.]+ s; CPU-s per"
        + " 1,000 files: driver [0-9.]+, relays [0-9.]+ \\(copy\\).*")
        .doesNotContain("driver 0.00,");
  }

  /** A setting each side rejects shows that it reached that side. */
  @Test
  void aSettingReachesTheRelaysAndTheDriver() {
    assertThat(smallRun("relaycp.relay.parallel-streams=0"))
        .contains("a local relay did not start");
    assertThat(smallRun("relaycp.copy.verification-threads=0"))
        .contains("the driver exited with");
  }

  /** The error output of a failed run of two tiny files with {@code setting}. */
  private static String smallRun(String setting) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true), BenchMain::addCommands);

    int exitCode = commandLine.execute("bench", "small-files", "--files", "2", "--file-bytes",
        "10", "--pairs", "1", "--datanodes", "1", "--runs", "1", "--setting", setting);

    assertThat(exitCode).as(out.toString()).isNotZero();
    return err.toString();
  }
}
