package dev.relaycp.cli;

import dev.relaycp.transfer.TransferProgress;
import java.io.PrintWriter;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Draws a copy's progress on the terminal's standard error: bytes, rate, ETA and the routes
 * still active. Draws nothing when disabled or when there is no terminal.
 */
public final class CopyProgress implements TransferProgress.Listener, AutoCloseable {
  private final ProgressBar bar;

  private CopyProgress(ProgressBar bar) {
    this.bar = bar;
  }

  public static CopyProgress start(boolean wanted) {
    if (!wanted || System.console() == null) {
      return new CopyProgress(null);
    }
    return new CopyProgress(new ProgressBarBuilder()
        .setTaskName("relaycp")
        .setInitialMax(0)
        .setUnit(" MB", 1_000_000)
        .showSpeed()
        .setStyle(ProgressBarStyle.ASCII)
        .setUpdateIntervalMillis(500)
        .setConsumer(new ConsoleProgressBarConsumer(System.err))
        .build());
  }

  @Override
  public void update(TransferProgress progress) {
    if (bar == null) {
      return;
    }
    synchronized (bar) {
      bar.maxHint(progress.bytesTotal());
      bar.stepTo(progress.bytesDone());
      bar.setExtraMessage(" " + progress.phase() + ", routes " + progress.routesActive()
          + (progress.routesStalled() > 0 ? " (" + progress.routesStalled() + " stalled)" : "")
          + (progress.chunksResent() > 0 ? ", re-sent " + progress.chunksResent() : ""));
    }
  }

  /**
   * Prints {@code line}: while a bar is drawn, on the bar's stream (standard error), on a line
   * of its own above the bar, which redraws below it at its next tick; else on {@code err}.
   */
  public void printAbove(PrintWriter err, String line) {
    if (bar == null) {
      err.println(line);
      err.flush();
      return;
    }
    synchronized (bar) {
      // Back to the bar's line, which the line overwrites, erased to its end (ANSI EL).
      System.err.print("\r" + line + "\u001b[K" + System.lineSeparator());
      System.err.flush();
    }
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.close();
    }
  }
}
