package dev.relaycp.cli;

import static dev.relaycp.cli.CopyCommandTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.cli.CopyCommandTest.Result;
import dev.relaycp.fs.ReplacedFile;
import dev.relaycp.provision.RelayPool;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.Route;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks {@code relaycp relay-pool} makes before it asks YARN for anything; the pool itself
 * runs against two MiniYARNClusters in {@code YarnRelaysIT}.
 */
class RelayPoolCommandTest {
  @TempDir Path temporary;

  @Test
  void withoutAPoolFileItIsAUsageError() {
    Result result = run("relay-pool");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).contains("--pool-file");
  }

  @Test
  void badOptionsAreOneLineUserErrorsThatNameTheFix() {
    String pool = temporary.resolve("pool.json").toString();
    String[][] cases = {
        {"--pool-file", pool, "--for", "0"},
        {"--pool-file", pool, "--for", "soon"},
        {"--pool-file", pool, "--relays-per-site", "0"},
        {"--pool-file", pool, "--src-conf", temporary.resolve("no-conf").toString()},
        {"--pool-file", temporary.resolve("no-folder").resolve("pool.json").toString()},
        {"--pool-file", pool, "--stop", "--stop-timeout", "later"},
        {"--pool-file", "hdfs:pools/relative.pool"},
    };
    String[] expected = {"is not a positive duration", "is not a positive duration",
        "--relays-per-site must be 1 or more", "configuration folder",
        "does not exist or is not writable", "--stop-timeout",
        "name a path on this machine or a whole URI"};
    for (int index = 0; index < cases.length; index++) {
      String[] args = new String[cases[index].length + 1];
      args[0] = "relay-pool";
      System.arraycopy(cases[index], 0, args, 1, cases[index].length);

      Result result = run(args);

      assertThat(result.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USER);
      assertThat(result.err().strip()).as(String.join(" ", args)).startsWith("relaycp: ")
          .contains(expected[index]).doesNotContain("\n");
    }
    assertThat(temporary.resolve("pool.json")).doesNotExist();
  }

  @Test
  void aPoolFileInUseIsNotTakenOver() throws Exception {
    Path pool = temporary.resolve("pool.json");
    RelayPool.of(List.of(new Route(0, RelayAddress.parse("dn1:7001"),
            RelayAddress.parse("dn2:7002"))), TransferSecret.generate(), "0123456789abcdef",
        Map.of(), Map.of(), Instant.now().plus(Duration.ofHours(1))).writeTo(local(pool));
    byte[] before = Files.readAllBytes(pool);

    Result result = run("relay-pool", "--pool-file", pool.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err().strip()).startsWith("relaycp: a relay pool runs with " + pool)
        .contains("stop it by removing the file");
    assertThat(Files.readAllBytes(pool)).isEqualTo(before);
  }

  @Test
  void stoppingAPoolThatDoesNotRunIsNoError() {
    String pool = temporary.resolve("pool.json").toString();

    Result result = run("relay-pool", "--stop", "--pool-file", pool);

    assertThat(result.exitCode()).as(result.err()).isEqualTo(ExitCodes.OK);
    assertThat(result.out()).contains("no relay pool runs with " + pool + ": nothing to stop");
  }

  /** {@code file} as the pool's file on this machine. */
  private static ReplacedFile local(Path file) {
    return ReplacedFile.at(file.toString(), new org.apache.hadoop.conf.Configuration(false));
  }
}
