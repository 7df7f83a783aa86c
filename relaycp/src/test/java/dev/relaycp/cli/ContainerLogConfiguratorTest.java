package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.log4j.Hierarchy;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.RootLogger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerLogConfiguratorTest {
  @TempDir Path temporary;

  @Test
  void infoAndAboveGoToTheNamedFileInYarnsLayout() throws Exception {
    Path syslog = temporary.resolve("container_1_0001_01_000001").resolve("syslog");
    Files.createDirectories(syslog.getParent());
    Hierarchy repository = new Hierarchy(new RootLogger(Level.DEBUG));

    new ContainerLogConfigurator().doConfigure(syslog.toUri().toURL(), repository);
    Logger logger = repository.getLogger("dev.relaycp.provision.ProvisionedRelay");
    logger.debug("not kept");
    logger.info("Announced dn1:4242 as container_1_0001_01_000001");
    logger.warn("a warning");
    repository.shutdown();

    List<String> lines = Files.readAllLines(syslog);
    assertThat(lines).hasSize(2);
    String thread = Thread.currentThread().getName();
    assertThat(lines.get(0)).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} INFO \\["
        + thread + "\\] dev\\.relaycp\\.provision\\.ProvisionedRelay: Announced dn1:4242 as"
        + " container_1_0001_01_000001");
    assertThat(lines.get(1)).contains(" WARN [" + thread + "] ").endsWith(": a warning");
  }

  @Test
  void aUrlThatIsNoFileLogsToStandardErrorInstead() throws Exception {
    Hierarchy repository = new Hierarchy(new RootLogger(Level.DEBUG));

    new ContainerLogConfigurator().doConfigure(
        new java.net.URL("http://example.invalid/syslog"), repository);

    assertThat(repository.getRootLogger().getAllAppenders().hasMoreElements()).isTrue();
    assertThat(repository.getRootLogger().getAppender("relay-container")).isNull();
    assertThat(repository.getRootLogger().getLevel()).isEqualTo(Level.INFO);
  }
}
