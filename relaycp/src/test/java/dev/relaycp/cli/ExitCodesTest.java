package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

class ExitCodesTest {
  /** Keeps what ExitCodes logs. */
  private static final class Recorded extends AppenderSkeleton {
    final List<LoggingEvent> events = new ArrayList<>();

    @Override
    protected void append(LoggingEvent event) {
      events.add(event);
    }

    @Override
    public void close() {}

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  @Command(name = "failing")
  private static final class Failing implements Callable<Integer> {
    private final Exception failure;

    Failing(Exception failure) {
      this.failure = failure;
    }

    @Override
    public Integer call() throws Exception {
      throw failure;
    }
  }

  private final Recorded recorded = new Recorded();
  private final StringWriter err = new StringWriter();

  @BeforeEach
  void listen() {
    Logger.getLogger(ExitCodes.class).addAppender(recorded);
  }

  @AfterEach
  void stopListening() {
    Logger.getLogger(ExitCodes.class).removeAppender(recorded);
  }

  private int run(Exception failure) {
    ExitCodes exitCodes = new ExitCodes();
    return new CommandLine(new Failing(failure))
        .setErr(new PrintWriter(err))
        .setExecutionExceptionHandler(exitCodes)
        .setExitCodeExceptionMapper(exitCodes)
        .execute();
  }

  @Test
  void anInternalErrorIsLoggedWithItsStackAndCause() {
    IllegalStateException cause = new IllegalStateException("the cause");
    NullPointerException bug = new NullPointerException("a bug");
    bug.initCause(cause);

    assertThat(run(bug)).isEqualTo(ExitCodes.INTERNAL);

    assertThat(err.toString()).startsWith("relaycp: internal error: java.lang.NullPointerException: a bug");
    assertThat(recorded.events).hasSize(1);
    LoggingEvent event = recorded.events.get(0);
    assertThat(event.getLevel().toString()).isEqualTo("ERROR");
    assertThat(event.getThrowableInformation().getThrowable()).isSameAs(bug);
    assertThat(event.getThrowableInformation().getThrowable().getCause()).isSameAs(cause);
  }

  @Test
  void anEntryPointPicocliDoesNotRunReportsAsTheCommandsDo() {
    StringWriter containerErr = new StringWriter();
    IllegalStateException bug = new IllegalStateException("a bug");

    assertThat(ExitCodes.report(new RelayCpException(ErrorCode.CLUSTER_UNREACHABLE,
        "the source is down; retry"), new PrintWriter(containerErr), "a relay container"))
        .isEqualTo(ExitCodes.EXTERNAL);
    assertThat(ExitCodes.report(bug, new PrintWriter(containerErr), "a relay container"))
        .isEqualTo(ExitCodes.INTERNAL);

    assertThat(containerErr.toString()).isEqualTo("relaycp: the source is down; retry"
        + System.lineSeparator() + "relaycp: internal error: " + bug
        + " (please report it with the log)" + System.lineSeparator());
    assertThat(recorded.events).hasSize(1);
    assertThat(recorded.events.get(0).getRenderedMessage())
        .isEqualTo("Internal error in a relay container");
    assertThat(recorded.events.get(0).getThrowableInformation().getThrowable()).isSameAs(bug);
  }

  @Test
  void aUserErrorIsOneLineAndNotLogged() {
    assertThat(run(new RelayCpException(ErrorCode.INVALID_ARGUMENT, "bad input; fix it")))
        .isEqualTo(ExitCodes.USER);

    assertThat(err.toString()).isEqualTo("relaycp: bad input; fix it" + System.lineSeparator());
    assertThat(recorded.events).isEmpty();
  }
}
