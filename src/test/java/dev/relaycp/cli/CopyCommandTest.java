package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CopyCommandTest {
  @TempDir Path temporary;

  record Result(int exitCode, String out, String err) {}

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void malformedUriIsAOneLineUserError() {
    Result result = run("copy", "hdfs://bad host:x/data", "hdfs://nn:8020/copy",
        "--local-relays", "1");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err().strip()).startsWith("relaycp: SRC 'hdfs://bad host:x/data' is not a valid URI")
        .contains("write it as hdfs://namenode:port/path")
        .doesNotContain("\n");
  }

  @Test
  void uriWithoutAuthorityIsRejected() {
    Result result = run("copy", "hdfs:/data", "hdfs://nn:8020/copy", "--local-relays", "1");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err()).contains("needs a scheme, authority and path");
  }

  @Test
  void noRelaysIsAUserErrorThatSaysHowToGiveThem() {
    Result result = run("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err()).contains("pass --local-relays N");
  }

  @Test
  void unreachableDestinationIsAnExternalErrorAndTouchesNothing() throws Exception {
    Path source = Files.createDirectories(temporary.resolve("source"));
    Files.writeString(source.resolve("a.txt"), "hello");
    Path secret = temporary.resolve("secret");
    Files.writeString(secret, "00112233445566778899aabbccddeeff");

    Result result = run("copy", "-D", "ipc.client.connect.max.retries=0",
        "-D", "ipc.client.connect.timeout=2000",
        source.toUri().toString(), "hdfs://127.0.0.1:1/copy",
        "--relays", "127.0.0.1:9", "--secret-file", secret.toString(), "--no-progress");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.EXTERNAL);
    assertThat(result.err().strip()).startsWith("relaycp: ").contains("127.0.0.1:1")
        .doesNotContain("\n");
    assertThat(Files.readString(source.resolve("a.txt"))).isEqualTo("hello");
  }

  @Test
  void missingSourceIsAUserError() throws Exception {
    Path secret = temporary.resolve("secret");
    Files.writeString(secret, "00112233445566778899aabbccddeeff");

    Result result = run("copy", temporary.resolve("absent").toUri().toString(),
        temporary.resolve("copy").toUri().toString(),
        "--relays", "127.0.0.1:9", "--secret-file", secret.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err()).contains("does not exist; check the path");
    assertThat(Files.exists(temporary.resolve("copy"))).isFalse();
  }

  @Test
  void everyCommandHasHelp() {
    for (String command : new String[] {"copy", "relay", "demo", "plan", "probe"}) {
      Result result = run(command, "--help");
      assertThat(result.exitCode()).as(command).isZero();
      assertThat(result.out()).as(command).contains("Usage: relaycp " + command);
    }
  }
}
