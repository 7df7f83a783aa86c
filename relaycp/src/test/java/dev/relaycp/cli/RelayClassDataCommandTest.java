package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code relaycp relay-class-data} where relaycp does not run from its jar (the tests run it
 * from its classes folder, as RunJar does when it unpacks the jar): one line saying so and how
 * to run it, bad input's exit code, and nothing made. The archive itself is made from the jar
 * in {@code HadoopJarIT}.
 */
class RelayClassDataCommandTest {
  @TempDir Path temporary;

  @Test
  void outsideItsJarItSaysHowToRunItAndMakesNothing() {
    Path folder = temporary.resolve("image");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true))
        .execute("relay-class-data", folder.toString());

    assertThat(code).isEqualTo(ExitCodes.USER);
    assertThat(err.toString().strip().lines()).singleElement().asString()
        .contains("not from its jar")
        .contains("HADOOP_CLIENT_SKIP_UNJAR=true hadoop jar relaycp-<version>.jar"
            + " relay-class-data FOLDER");
    assertThat(out.toString()).isEmpty();
    assertThat(folder).doesNotExist();
  }
}
